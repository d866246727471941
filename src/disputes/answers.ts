import { type Client, WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import type { Db } from '../db/client';
import { conflict, invalid, unavailable } from '../domain/errors';
import type { Dispute } from '../generated/prisma/client';
import type { Logger } from '../logger';
import { refusalError } from '../payments/facts';
import { withInFlightRetry } from '../payments/workflowCalls';
import { acceptDisputeUpdate, type DisputeOutcome, disputeWorkflowId, saveDisputeEvidenceUpdate, submitDisputeUpdate } from '../../core/dispute/messages';
import { acceptRefusal, type DisputeFacts, evidenceRefusal, submitRefusal } from '../../core/dispute/rules';
import type { DisputeStatus } from '../../core/dispute/statuses';
import { findOwnDispute } from './queries';

/**
 * The merchant's answers (docs/disputes.md, "The merchant's answers"): the API checks what it can from the row and hands the
 * answer to the dispute's workflow, the one writer of the dispute, whose validators decide.
 */
export interface DisputeDeps {
  db: Db;
  temporal: Client;
  logger: Logger;
}

/** A dispute row as the rules read it. */
export function disputeFactsOf(d: Dispute): DisputeFacts {
  const text = (d.evidence as { text?: unknown } | null)?.text;
  return { status: d.status as DisputeStatus, hasStatement: typeof text === 'string', dueBy: d.dueBy.toISOString() };
}

type Handle = ReturnType<Client['workflow']['getHandle']>;

async function ask(deps: DisputeDeps, d: Dispute, send: (handle: Handle, updateId: string) => Promise<DisputeOutcome>): Promise<Dispute> {
  try {
    await withInFlightRetry((updateId) => send(deps.temporal.workflow.getHandle(disputeWorkflowId(d.id)), updateId));
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) {
      const cause = (err as { cause?: { message?: string; type?: string } }).cause;
      const message = cause?.message || err.message;
      if (cause?.type === 'invalid') throw invalid(message);
      if (cause?.type === 'unavailable') throw unavailable(message, 2);
      throw conflict(message);
    }
    const current = await deps.db.dispute.findUniqueOrThrow({ where: { id: d.id } });
    // Its workflow has completed: the dispute is final.
    if (err instanceof WorkflowNotFoundError || /already completed/i.test(`${(err as Error)?.message}`)) {
      throw conflict(`the dispute is ${current.status}, not NEEDS_RESPONSE`);
    }
    deps.logger.error({ err, disputeId: d.id }, 'dispute workflow could not be reached');
    throw unavailable('the dispute could not be reached right now; retry shortly', 2);
  }
  return deps.db.dispute.findUniqueOrThrow({ where: { id: d.id } });
}

function check(refusal: ReturnType<typeof evidenceRefusal>): void {
  if (refusal) throw refusalError(refusal);
}

export async function saveDisputeEvidence(deps: DisputeDeps, merchantId: string, id: string, text: string): Promise<Dispute> {
  const d = await findOwnDispute(deps.db, merchantId, id);
  check(evidenceRefusal(disputeFactsOf(d), {}, Date.now()));
  return ask(deps, d, (h, updateId) => h.executeUpdate(saveDisputeEvidenceUpdate, { updateId, args: [{ text }] }));
}

export async function submitDispute(deps: DisputeDeps, merchantId: string, id: string): Promise<Dispute> {
  const d = await findOwnDispute(deps.db, merchantId, id);
  check(submitRefusal(disputeFactsOf(d), {}, Date.now()));
  return ask(deps, d, (h, updateId) => h.executeUpdate(submitDisputeUpdate, { updateId }));
}

export async function acceptDispute(deps: DisputeDeps, merchantId: string, id: string): Promise<Dispute> {
  const d = await findOwnDispute(deps.db, merchantId, id);
  check(acceptRefusal(disputeFactsOf(d), {}, Date.now()));
  return ask(deps, d, (h, updateId) => h.executeUpdate(acceptDisputeUpdate, { updateId }));
}
