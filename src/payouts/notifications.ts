import { type Client, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { acquirerKeyOf } from '../acquirer/resolver';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { derivedUuid } from '../domain/derivedId';
import type { Logger } from '../logger';
import { PAYOUT_WORKFLOW_TYPE, payoutNudgeSignal, type PayoutWorkflowInput, payoutWorkflowId } from '../../core/payout/messages';

/**
 * An acquirer's payout notification (docs/payouts-and-fees.md, "Payouts"), verified by the caller: only a nudge. It names
 * the report the payout pays (its batch reference: our batch id, and `:<accountId>` for an
 * account's report), so the payout's business, mode and account come from our own batch, never
 * from the notification; the payout's workflow `payout-<id>` (the id derived from the acquirer's,
 * so a notification that arrives twice reaches one workflow) reads the acquirer itself.
 */
export interface PayoutNotification {
  deviceId: string;
  payoutId: string;
  batchReference: string;
}

export interface PayoutRelayDeps {
  db: Db;
  temporal: Client;
  config: Config;
  logger: Logger;
}

/** The batch and account a report's batch reference names (src/settlement/batches.ts makes them). */
export function reportOf(batchReference: string): { batchId: string; accountId: string | null } {
  const colon = batchReference.indexOf(':');
  return colon < 0 ? { batchId: batchReference, accountId: null } : { batchId: batchReference.slice(0, colon), accountId: batchReference.slice(colon + 1) };
}

export const payoutIdOf = (acquirerKey: string, acquirerPayoutId: string): string => derivedUuid('payout', acquirerKey, acquirerPayoutId);

export async function relayPayoutNotification(
  deps: PayoutRelayDeps,
  n: PayoutNotification,
  /** The acquirer that sent it: an account (its own notification path), or the installation's sandbox. */
  from: { acquirerAccountId: string } | { installation: string },
): Promise<void> {
  const { batchId, accountId } = reportOf(n.batchReference);
  const fromAccount = 'acquirerAccountId' in from ? from.acquirerAccountId : null;
  // An account's path speaks for its own reports only; the installation's path for any sandbox report.
  if (fromAccount !== null && accountId !== fromAccount) return;
  const batch = await deps.db.settlementBatch.findUnique({ where: { id: batchId }, select: { merchantId: true, mode: true } });
  if (!batch) return; // not a report of ours
  if (accountId && !(await deps.db.acquirerAccount.findFirst({ where: { id: accountId, merchantId: batch.merchantId }, select: { id: true } }))) return;
  const acquirerKey = acquirerKeyOf({ acquirerAccountId: accountId, acquirerName: 'installation' in from ? from.installation : 'sandbox' });
  await startPayoutWorkflow(deps, {
    payoutId: payoutIdOf(acquirerKey, n.payoutId),
    merchantId: batch.merchantId,
    mode: batch.mode,
    acquirerAccountId: accountId,
    acquirerKey,
    acquirerPayoutId: n.payoutId,
    deviceId: n.deviceId,
    batchId,
    recheckMs: Math.round(deps.config.PAYOUT_RECHECK_MINUTES * 60_000),
  });
}

/**
 * A Stripe account's `payout.*` event (verified on the account's own path): a payout of the
 * account's balance. Only a nudge: the business and mode come from the account row, the payout's
 * workflow reads Stripe itself. An account that is not one of ours (or not Stripe's) is ignored.
 */
export async function relayBalancePayoutNotification(deps: PayoutRelayDeps, n: { acquirerAccountId: string; payoutId: string }): Promise<void> {
  const account = await deps.db.acquirerAccount.findUnique({
    where: { id: n.acquirerAccountId },
    select: { id: true, merchantId: true, mode: true, acquirer: true },
  });
  if (!account || account.acquirer !== 'stripe') return;
  await startPayoutWorkflow(deps, {
    pays: 'BALANCE',
    payoutId: payoutIdOf(account.id, n.payoutId),
    merchantId: account.merchantId,
    mode: account.mode,
    acquirerAccountId: account.id,
    acquirerKey: account.id,
    acquirerPayoutId: n.payoutId,
    recheckMs: Math.round(deps.config.PAYOUT_RECHECK_MINUTES * 60_000),
    paidWatchMs: Math.round(deps.config.PAYOUT_FAILURE_WATCH_DAYS * 86_400_000),
  });
}

/** Starts the payout's workflow, or nudges it when it runs: a notification that arrives twice reaches one workflow. */
async function startPayoutWorkflow(deps: PayoutRelayDeps, input: PayoutWorkflowInput): Promise<void> {
  try {
    await deps.temporal.workflow.signalWithStart(PAYOUT_WORKFLOW_TYPE, {
      args: [input],
      taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
      workflowId: payoutWorkflowId(input.payoutId),
      signal: payoutNudgeSignal,
      // One workflow per payout, ever: a notification after it finished meets the closed run.
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}
