import fs from 'node:fs';
import path from 'node:path';
import { billWorkflowId } from '../../core/bill/messages';
import { call } from '../../test/support/http';
import { startTestStack, type TestStack } from '../../test/support/stack';
import { addTerminal, createPayment, openShop, type Shop, sim, statusBecomes } from '../../test/payments/helpers';
import { bills } from '../../test/bills/helpers';
import { historyToFile } from '../../test/replay/historyFile';
import { BILL_REPLAY_PATH_NAMES, type BillReplayPathName } from '../../test/replay/bills/paths';

/**
 * Records the bill workflow's histories into test/replay/bills/histories/*.json from the real stack,
 * through the public API: a bill paid by two cards and cash, one cancelled (a captured card voided,
 * cash to hand back), one left to expire (timeoutMinutes 1). Skipped unless RECORD_REPLAY_HISTORIES=1:
 * the committed files are what billReplay.unit.test.ts checks the current workflow code against.
 */
const record = process.env.RECORD_REPLAY_HISTORIES === '1' ? describe : describe.skip;
const DIR = path.join(__dirname, '../../test/replay/bills/histories');

record('recording bill workflow histories', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ VOID_WINDOW_MINUTES: '10', SWEEP_INTERVAL_SECONDS: '2' });
    fs.mkdirSync(DIR, { recursive: true });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const b = () => bills(stack);
  const cardTender = async (till: Shop, billId: string, amount: number) => {
    const p = await createPayment(stack, till, { amount, billId });
    expect(p.status).toBe(201);
    await sim(stack).customer(till.deviceId, { action: 'pay' });
    await statusBecomes(stack, p.body.id, 'CAPTURED');
  };
  const cash = async (shop: Shop, billId: string, amount: number) =>
    expect((await call(stack.apiUrl, 'POST', `/api/in-store/bills/${billId}/tenders`, { key: shop.key, body: { method: 'CASH', amount } })).status).toBe(201);
  const save = async (name: BillReplayPathName, billId: string) => {
    const handle = stack.client.workflow.getHandle(billWorkflowId(billId));
    await handle.result();
    fs.writeFileSync(path.join(DIR, `${name}.json`), historyToFile(await handle.fetchHistory()));
    return name;
  };

  it('records every bill path', async () => {
    const expiring = async () => {
      const shop = await openShop(stack);
      const bill = (await b().create(shop, { amount: 30, timeoutMinutes: 1 })).body;
      await cardTender(shop, bill.id, 10);
      await b().becomes(shop, bill.id, 'EXPIRED', 120_000);
      return save('bill-expired', bill.id);
    };
    const paid = async () => {
      const shop = await openShop(stack);
      const till2 = await addTerminal(stack, shop);
      const bill = (await b().create(shop, { amount: 40 })).body;
      await cardTender(shop, bill.id, 15);
      await cardTender(till2, bill.id, 15);
      await cash(shop, bill.id, 10);
      await b().becomes(shop, bill.id, 'PAID');
      return save('bill-paid', bill.id);
    };
    const cancelled = async () => {
      const shop = await openShop(stack);
      const bill = (await b().create(shop, { amount: 50 })).body;
      await cardTender(shop, bill.id, 20);
      await cash(shop, bill.id, 10);
      expect((await b().cancel(shop, bill.id)).status).toBe(202);
      await b().becomes(shop, bill.id, 'CANCELLED');
      return save('bill-cancelled', bill.id);
    };
    const recorded = await Promise.all([expiring(), paid(), cancelled()]);
    expect(recorded.sort()).toEqual([...BILL_REPLAY_PATH_NAMES].sort());
  }, 300_000);
});
