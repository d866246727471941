import type { Db } from '../db/client';
import type { Prisma } from '../generated/prisma/client';
import type { DisputeWorkflowInput } from '../../core/dispute/messages';
import type { DisputeStatus } from '../../core/dispute/statuses';
import type { EvidenceTransaction } from './evidence';

/**
 * The dispute row's writes: only the dispute's workflow calls them (through its activities), so
 * a row never races its own status. Each is safe to repeat. The payment's `disputeStatus` (its
 * latest dispute's status) changes in the same transaction, with the payment row locked first so
 * two disputes of one payment cannot leave it stale.
 */
type Tx = Prisma.TransactionClient;

async function lockPayment(tx: Tx, paymentId: string): Promise<void> {
  await tx.$executeRaw`SELECT 1 FROM "Payment" WHERE "id" = ${paymentId} FOR UPDATE`;
}

async function refreshPaymentDisputeStatus(tx: Tx, paymentId: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE "Payment" SET "disputeStatus" = latest."status", "updatedAt" = now()
    FROM (SELECT "status" FROM "Dispute" WHERE "paymentId" = ${paymentId} ORDER BY "openedAt" DESC, "createdAt" DESC, "id" DESC LIMIT 1) AS latest
    WHERE "Payment"."id" = ${paymentId} AND "Payment"."disputeStatus" IS DISTINCT FROM latest."status"`;
}

/** The row of a dispute just opened, NEEDS_RESPONSE with its assembled evidence; nothing when it exists. */
export async function recordDisputeOpened(db: Db, input: DisputeWorkflowInput, transaction: EvidenceTransaction): Promise<void> {
  await db.$transaction(async (tx) => {
    await lockPayment(tx, input.paymentId);
    const p = await tx.payment.findUniqueOrThrow({
      where: { id: input.paymentId },
      select: { merchantId: true, mode: true, pspReference: true, storeExternalId: true, acquirerAccountId: true, acquirerName: true },
    });
    await tx.dispute.createMany({
      data: [
        {
          id: input.disputeId,
          merchantId: p.merchantId,
          mode: p.mode,
          paymentId: input.paymentId,
          pspReference: p.pspReference,
          storeExternalId: p.storeExternalId,
          acquirerAccountId: p.acquirerAccountId,
          acquirerName: p.acquirerName,
          acquirerKey: input.acquirerKey,
          acquirerDisputeId: input.acquirerDisputeId,
          status: 'NEEDS_RESPONSE',
          reason: input.reason,
          amount: input.amount,
          currency: input.currency,
          openedAt: new Date(input.openedAt),
          dueBy: new Date(input.dueBy),
          evidence: { transaction: transaction as unknown as Prisma.InputJsonValue, text: null },
        },
      ],
      skipDuplicates: true,
    });
    await refreshPaymentDisputeStatus(tx, input.paymentId);
  });
}

export interface DisputeStatusWrite {
  disputeId: string;
  status: DisputeStatus;
  submittedAt: string | null;
  closedAt: string | null;
}

/** The dispute's status as its workflow decided it. */
export async function recordDisputeStatus(db: Db, w: DisputeStatusWrite): Promise<void> {
  await db.$transaction(async (tx) => {
    const { paymentId } = await tx.dispute.findUniqueOrThrow({ where: { id: w.disputeId }, select: { paymentId: true } });
    await lockPayment(tx, paymentId);
    await tx.dispute.update({
      where: { id: w.disputeId },
      data: { status: w.status, submittedAt: w.submittedAt ? new Date(w.submittedAt) : null, closedAt: w.closedAt ? new Date(w.closedAt) : null },
    });
    await refreshPaymentDisputeStatus(tx, paymentId);
  });
}

/** The merchant's statement, stored as the text it is (never interpreted). */
export async function recordDisputeStatement(db: Db, disputeId: string, text: string): Promise<void> {
  await db.$executeRaw`
    UPDATE "Dispute" SET "evidence" = jsonb_set("evidence", '{text}', to_jsonb(${text}::text)), "updatedAt" = now() WHERE "id" = ${disputeId}`;
}
