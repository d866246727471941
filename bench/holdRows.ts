/**
 * `--hold-rows M` (with --hold): M more open payments without M more lifecycles, so that 10,000
 * open payments fit in minutes on a slow machine. Each is a payment row written as the projection
 * writes a CAPTURED payment, and its workflow started from the row exactly as the sweep restarts a
 * missing one (src/payments/sweep.ts): a running payment workflow inside its void window, with its
 * timer, on the same worker. Only the way there is shorter: no bill, no acquirer call, no webhook.
 */
import crypto from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { loadConfig } from '../src/config';
import { createDb } from '../src/db/client';
import { newPspReference } from '../src/payments/pspReference';
import { paymentWorkflowStartOptions, PAYMENT_WORKFLOW_TYPE, workflowInputFromPayment } from '../src/payments/workflowStart';
import type { PaymentWorkflow } from '../core/payment/messages';
import type { RunningStack } from '../support/serviceStack';
import type { Shop } from '../support/shop';

export async function holdRows(opts: { stack: RunningStack; shop: Shop; count: number; voidWindowMinutes: string; log: (line: string) => void }) {
  const { stack, shop, count } = opts;
  const config = loadConfig({ VOID_WINDOW_MINUTES: opts.voidWindowMinutes });
  const db = createDb(stack.databaseUrl, { poolSize: 4 });
  const connection = await Connection.connect({ address: stack.temporalAddress });
  const client = new Client({ connection });
  let started = 0;
  let errors = 0;
  try {
    const merchant = await db.merchant.findUniqueOrThrow({ where: { externalId: shop.merchantExternalId } });
    const store = await db.store.findFirstOrThrow({ where: { merchantId: merchant.id, externalId: shop.storeExternalId } });
    const till = shop.tills[0]!;
    const terminal = await db.terminal.findFirstOrThrow({ where: { merchantId: merchant.id, externalId: till.terminalExternalId } });
    const BATCH = 250;
    for (let from = 0; from < count; from += BATCH) {
      const now = new Date();
      const rows = Array.from({ length: Math.min(BATCH, count - from) }, () => {
        const id = crypto.randomUUID();
        return {
          id,
          merchantId: merchant.id,
          storeId: store.id,
          terminalId: terminal.id,
          storeExternalId: store.externalId,
          terminalExternalId: terminal.externalId,
          deviceId: terminal.deviceId,
          mode: 'live',
          pspReference: newPspReference(),
          status: 'CAPTURED',
          amount: '12.50',
          currency: 'EUR',
          requestedModes: [],
          paymentMethod: 'CARD',
          cardBrand: 'VISA',
          last4: '4242',
          previousStatus: 'AWAITING_TERMINAL',
          acquirerName: 'sandbox',
          acquirerRef: `sbx_hold_${id.slice(0, 8)}`,
          origin: 'PLATFORM',
          terminalTimeoutMinutes: '5',
          workflowId: `payment-${id}`,
          historySequence: 2,
          expiresAt: new Date(now.getTime() + 6 * 60_000),
          capturedAt: now,
          capturedAmount: '12.50',
          createdAt: now,
          updatedAt: now,
        };
      });
      await db.payment.createMany({ data: rows });
      const payments = await db.payment.findMany({ where: { id: { in: rows.map((r) => r.id) } } });
      for (let i = 0; i < payments.length; i += 20) {
        await Promise.all(
          payments.slice(i, i + 20).map(async (p) => {
            try {
              const input = workflowInputFromPayment(p, merchant.externalId, config, 'SWEEP');
              await client.workflow.start<PaymentWorkflow>(PAYMENT_WORKFLOW_TYPE, paymentWorkflowStartOptions(input, config));
              started++;
            } catch (err) {
              errors++;
              if (errors <= 5) opts.log(`hold-rows: ${String(err)}`);
            }
          }),
        );
      }
      if ((from + BATCH) % 1000 === 0) opts.log(`hold-rows: ${started} workflows started from rows`);
    }
  } finally {
    await connection.close();
    await db.$disconnect();
  }
  return { requested: count, started, errors };
}
