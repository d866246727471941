import { type AcquirerDispute, disputesOf, type AcquirerDisputes } from '../../src/acquirer/port';
import { resolverOf } from '../../src/acquirer/resolver';
import { assembleEvidenceTransaction, type EvidenceTransaction } from '../../src/disputes/evidence';
import { publishDisputeEvent } from '../../src/disputes/events';
import { recordDisputeOpened, recordDisputeStatement, recordDisputeStatus, type DisputeStatusWrite } from '../../src/disputes/store';
import type { DisputeWorkflowInput } from '../../core/dispute/messages';
import type { DisputeStatus } from '../../core/dispute/statuses';
import type { DisputeEventType } from '../../core/dispute/transition';
import { callAcquirer } from '../acquirerCalls';
import type { ActivityDeps } from '../deps';

/**
 * The dispute workflow's side effects (docs/disputes.md): its row, its evidence, its events and
 * its calls to the acquirer that took the payment. Each is safe to repeat: writes are idempotent,
 * the acquirer answers a repeated submission or acceptance with the dispute as it stands. Its
 * acquirer calls go through callAcquirer (../acquirerCalls.ts): a refusal is final.
 */
export function disputeActivities(deps: ActivityDeps, resolver = resolverOf(deps)) {
  const { db } = deps;

  /** The acquirer's dispute port for a dispute row, and where the dispute is known there. */
  async function atAcquirer(disputeId: string): Promise<{ port: AcquirerDisputes; deviceId: string; acquirerDisputeId: string }> {
    const d = await db.dispute.findUniqueOrThrow({
      where: { id: disputeId },
      select: { acquirerDisputeId: true, payment: { select: { deviceId: true, acquirerName: true, acquirerAccountId: true } } },
    });
    const port = disputesOf(await resolver.ofRecord(d.payment));
    return { port, deviceId: d.payment.deviceId ?? '', acquirerDisputeId: d.acquirerDisputeId };
  }

  return {
    assembleDisputeEvidence: ({ paymentId }: { paymentId: string }): Promise<EvidenceTransaction> => assembleEvidenceTransaction(db, paymentId),
    recordDisputeOpened: ({ input, transaction }: { input: DisputeWorkflowInput; transaction: EvidenceTransaction }) =>
      recordDisputeOpened(db, input, transaction),
    recordDisputeStatus: (write: DisputeStatusWrite) => recordDisputeStatus(db, write),
    recordDisputeStatement: ({ disputeId, text }: { disputeId: string; text: string }) => recordDisputeStatement(db, disputeId, text),
    publishDisputeEvent: async ({ disputeId, eventType, status }: { disputeId: string; eventType: DisputeEventType; status: DisputeStatus }): Promise<void> => {
      await publishDisputeEvent(deps, disputeId, eventType, status);
    },
    readAcquirerDispute: ({ disputeId }: { disputeId: string }): Promise<AcquirerDispute> =>
      callAcquirer(async () => {
        const { port, deviceId, acquirerDisputeId } = await atAcquirer(disputeId);
        return port.getDispute(deviceId, acquirerDisputeId);
      }),
    /** Sends the statement and the assembled transaction as they are stored. */
    submitDisputeToAcquirer: ({ disputeId }: { disputeId: string }): Promise<AcquirerDispute> =>
      callAcquirer(async () => {
        const { port, deviceId, acquirerDisputeId } = await atAcquirer(disputeId);
        const { evidence } = await db.dispute.findUniqueOrThrow({ where: { id: disputeId }, select: { evidence: true } });
        const { text, transaction } = evidence as { text: string | null; transaction: Record<string, unknown> };
        return port.submitDisputeEvidence(deviceId, acquirerDisputeId, { text: text ?? '', transaction });
      }),
    acceptDisputeAtAcquirer: ({ disputeId }: { disputeId: string }): Promise<AcquirerDispute> =>
      callAcquirer(async () => {
        const { port, deviceId, acquirerDisputeId } = await atAcquirer(disputeId);
        return port.acceptDispute(deviceId, acquirerDisputeId);
      }),
  };
}
