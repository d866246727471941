import fs from 'node:fs';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { payoutActivities } from '../../activities/payouts';
import { ACQUIRER_REJECTED, isAcquirerRejection } from '../../core/acquirerFailure';
import type { PayoutWorkflowInput } from '../../core/payout/messages';
import { AcquirerRejectedError, AcquirerUnreachableError, type AcquirerPort } from '../../src/acquirer/port';
import { PAYOUT_ACTIVITY_OPTIONS } from '../../workflows/payout/payoutWorkflow';

/**
 * One failure type for an acquirer's refusal (core/acquirerFailure.ts, docs/architecture.md): the
 * payout workflow once listed 'ACQUIRER_REJECTED' as non-retryable while the activities threw
 * 'AcquirerRejected', a name that matched nothing. The workflow's list must name the failure the
 * activities throw, and a payout read the acquirer refuses must not be retried; one it did not
 * answer must be.
 */
const input: PayoutWorkflowInput = {
  payoutId: 'po-1',
  merchantId: 'm-1',
  mode: 'TEST',
  acquirerAccountId: null,
  acquirerKey: 'installation:sandbox',
  acquirerPayoutId: 'apo-1',
  recheckMs: 60_000,
  deviceId: 'dev-1',
  batchId: 'batch-1',
};

function activitiesWith(port: Partial<AcquirerPort>) {
  const acquirers = { byName: () => ({ name: 'sandbox', ...port }) as AcquirerPort };
  return payoutActivities({
    db: {} as never,
    acquirers: acquirers as never,
    acquirer: {} as never,
    config: {} as never,
    logger: {} as never,
    temporal: {} as never,
  });
}

async function failureOf(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error('expected a failure');
    },
    (err: unknown) => err,
  );
}

describe('the payout workflow and its activities speak of one refusal', () => {
  it("the payout workflow's non-retryable list names the one constant the activities throw", () => {
    expect(ACQUIRER_REJECTED).toBe('AcquirerRejected'); // recorded in committed histories: never renamed
    expect(PAYOUT_ACTIVITY_OPTIONS.retry.nonRetryableErrorTypes).toEqual([ACQUIRER_REJECTED]);
  });

  it("a payout read the acquirer refuses is the final ACQUIRER_REJECTED failure, carrying the acquirer's status", async () => {
    const err = await failureOf(
      activitiesWith({
        payouts: { getPayout: () => Promise.reject(new AcquirerRejectedError('acquirer refused GET payout: 403', 403)) },
      }).syncPayout(input),
    );
    expect(isAcquirerRejection(err)).toBe(true);
    const failure = err as ApplicationFailure;
    // Not retried either way: the failure says so, and the workflow's policy names its type.
    expect(failure.nonRetryable).toBe(true);
    expect(PAYOUT_ACTIVITY_OPTIONS.retry.nonRetryableErrorTypes).toContain(failure.type);
    expect(failure.details).toEqual([{ status: 403, code: undefined }]);
  });

  it('an acquirer without payouts, and an answer that cannot be this payout, are the same failure', async () => {
    const none = await failureOf(activitiesWith({}).syncPayout(input));
    expect(none).toBeInstanceOf(ApplicationFailure);
    expect(none).toMatchObject({ type: ACQUIRER_REJECTED, nonRetryable: true, details: [{ status: 501 }] });

    const balance = await failureOf(activitiesWith({ payouts: { getPayout: () => Promise.resolve({ pays: 'BALANCE' } as never) } }).syncPayout(input));
    expect(balance).toMatchObject({ type: ACQUIRER_REJECTED, nonRetryable: true, message: 'payout apo-1 pays a balance, not a report' });
  });

  it('a payout read the acquirer did not answer is thrown as it is, so it is retried', async () => {
    const err = await failureOf(activitiesWith({ payouts: { getPayout: () => Promise.reject(new AcquirerUnreachableError('no answer')) } }).syncPayout(input));
    expect(err).toBeInstanceOf(AcquirerUnreachableError);
    expect(isAcquirerRejection(err)).toBe(false);
  });
});

describe('every workflow retry policy names the one constant', () => {
  const files = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));

  it('no nonRetryableErrorTypes in workflows/ spells an acquirer refusal as a string of its own', () => {
    const root = path.join(__dirname, '../../workflows');
    const lists = files(root).flatMap((file) =>
      [...fs.readFileSync(file, 'utf8').matchAll(/nonRetryableErrorTypes:\s*\[([^\]]*)\]/g)].map((m) => ({
        file: path.relative(root, file),
        names: m[1].trim(),
      })),
    );
    expect(lists.length).toBeGreaterThanOrEqual(6);
    for (const { file, names } of lists) {
      // Either the constant, or a failure of its own that is no acquirer's: webhook delivery's refused URL,
      // a bill's give-back step the payment's rules refused (docs/bills.md), a receipt that has nothing to send (docs/receipts.md).
      const own: Record<string, string> = {
        'webhooks/delivery.ts': "'WebhookUrlRefused'",
        'bill/run.ts': 'BILL_STEP_REFUSED',
        'receipt/receiptWorkflow.ts': 'RECEIPT_NOT_SENDABLE',
      };
      expect({ file, names }).toEqual({ file, names: own[file] ?? 'ACQUIRER_REJECTED' });
    }
  });
});
