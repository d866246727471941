import fs from 'node:fs';
import path from 'node:path';
import { payoutWorkflowId } from '../../core/payout/messages';
import { backOffice, sandboxAccount } from '../../test/acquirerAccounts/helpers';
import { call } from '../../test/support/http';
import { startTestStack, type TestStack } from '../../test/support/stack';
import { eventually, storeWithTerminal } from '../../test/payments/helpers';
import { capturedPayment, closeBatch } from '../../test/settlement/helpers';
import { historyToFile } from '../../test/replay/historyFile';
import { PAYOUT_REPLAY_PATHS, type PayoutReplayPath } from '../../test/replay/payouts/paths';

/**
 * Records the payout workflow's histories into test/replay/payouts/histories/*.json from the real
 * stack. Skipped unless RECORD_REPLAY_HISTORIES=1: the committed files are what
 * payoutReplay.unit.test.ts checks the current workflow code against.
 */
const record = process.env.RECORD_REPLAY_HISTORIES === '1' ? describe : describe.skip;
const DIR = path.join(__dirname, '../../test/replay/payouts/histories');

record('recording payout workflow histories', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
    fs.mkdirSync(DIR, { recursive: true });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('records every payout path', async () => {
    const { shop, admin, finance } = await backOffice(stack);
    const recorded: PayoutReplayPath[] = [];
    for (const [name, terms] of [
      ['payout-paid', {}],
      ['payout-in-transit-then-failed', { payoutOutcome: 'FAILED', payoutDelayMs: 3000 }],
    ] as const) {
      const mid = `MID-${name}`;
      const accountId = await sandboxAccount(admin, 'test', mid);
      expect((await admin.saveRoutes({ mode: 'test', rules: [], defaultAccountId: accountId })).status).toBe(200);
      expect((await call(stack.sandboxUrl, 'PUT', `/sim/accounts/${mid}`, { body: terms })).status).toBe(200);
      const store = await storeWithTerminal(stack, shop, { mode: 'test' });
      await capturedPayment(stack, store, 20);
      expect((await closeBatch(stack, finance, store.storeExternalId)).status).toBe(201);
      const payout = await eventually(
        async () => (await stack.db.payout.findFirst({ where: { acquirerAccountId: accountId, status: { not: 'IN_TRANSIT' } } })) ?? undefined,
        30_000,
      );
      const handle = stack.client.workflow.getHandle(payoutWorkflowId(payout.id));
      await handle.result();
      fs.writeFileSync(path.join(DIR, `${name}.json`), historyToFile(await handle.fetchHistory()));
      recorded.push(name);
    }
    expect(recorded.sort()).toEqual([...PAYOUT_REPLAY_PATHS].sort());
  }, 300_000);
});
