import { openShop, sim, type Shop, storeWithTerminal } from '../payments/helpers';
import { userOf } from '../settlement/helpers';
import { ACQUIRER_PREFIX } from '../../src/acquirer/sandbox/acquirerRoutes';
import { call } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { CONFORMANCE_ENV, conformanceSuite } from './conformance';

/** The shared acquirer behaviour (./conformance.ts) for the sandbox, over HTTP, as the installation default. */
let stack: TestStack;

conformanceSuite(
  async () => {
    stack = await startTestStack(CONFORMANCE_ENV);
    const first = await openShop(stack);
    const finance = await userOf(stack, first, ['FINANCE']);
    const expectOk = async (res: Promise<{ status: number; body: unknown }>, what: string) => {
      const r = await res;
      if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
    };
    return {
      stack,
      finance,
      till: async ({ twoStep = false } = {}) => {
        const shop = await storeWithTerminal(stack, first, { twoStep });
        if (twoStep) await expectOk(sim(stack).configure(shop.deviceId, { twoStep: true }), 'two-step device');
        return shop;
      },
      customer: (shop: Shop, action) => expectOk(sim(stack).customer(shop.deviceId, { action }), `customer ${action}`),
      unreachable: (shop: Shop, on) => expectOk(sim(stack).configure(shop.deviceId, { reachable: !on }), 'reachable'),
      moneyAt: async (shop: Shop, paymentId: string) => {
        const row = await stack.db.payment.findUniqueOrThrow({ where: { id: paymentId }, include: { refunds: true } });
        if (!row.acquirerRef) return { captures: 0, reversed: [] };
        const bill = (await call(stack.sandboxUrl, 'GET', `/sim/bills/${row.acquirerRef}`)).body;
        const reversed = bill.voided ? [Number(bill.capturedAmount ?? bill.amount)] : [];
        for (const r of row.refunds.sort((x, y) => x.createdAt.getTime() - y.createdAt.getTime())) {
          const at = await call(stack.sandboxUrl, 'GET', `${ACQUIRER_PREFIX}/devices/${shop.deviceId}/refunds/${r.refundReference}`);
          if (at.body.state === 'SUCCEEDED') reversed.push(Number(at.body.amount));
        }
        return { captures: bill.status === 'CAPTURED' || bill.status === 'AUTHORIZED' ? 1 : 0, reversed };
      },
    };
  },
  async () => {
    await stack?.stop();
  },
);
