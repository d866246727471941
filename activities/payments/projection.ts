import type { DecidedRefund, ProjectedFields, StatusEvent } from '../../core/payment/transition';
import type { PendingRefund } from '../../core/payment/messages';
import type { PaymentMode, PaymentStatus } from '../../core/payment/statuses';
import { pendingRefundOf, pendingRefundsOf } from '../../src/refunds/pending';
import { paymentStatusEvents } from '../../src/observability/metrics';
import { expectedFeeAtCapture } from '../../src/fees/contracts';
import type { Db } from '../../src/db/client';
import { disputesOfPayment as disputesOf, type PaymentDisputeFacts } from '../../src/disputes/chargebacks';
import type { ActivityDeps } from '../deps';
import { nudgeBill } from '../../src/bills/workflowCalls';
import { type AcquirerResolver, resolverOf } from '../../src/acquirer/resolver';
import { projectedColumns } from '../../src/payments/projectedRow';

export interface RecordStatusEventInput {
  paymentId: string;
  event: StatusEvent;
  fields: ProjectedFields;
  /** A refund decided by this status event: its row changes in the same transaction. */
  refund?: DecidedRefund;
  /** The payment's bill, told of the status event once it is written (docs/bills.md). */
  billId?: string;
}

/** Refund ids one message may name: the sweep hands over at most 200 at a time. */
const MAX_REFUNDS_CHECKED = 200;

/** The payment as its row stands: what a run started later takes over from the runs before it. */
export interface PaymentSnapshot {
  fields: ProjectedFields;
  sequence: number;
  pendingRefunds: PendingRefund[];
  /** The payment's disputes (absent in histories from before disputes; amount absent before the chargeback-counts patch). */
  disputes?: { id: string; status: string; amount?: string }[];
}

/** A refund row as the workflow writes it: created PENDING, later decided. */
export interface RecordRefundInput {
  id: string;
  paymentId: string;
  amount: string;
  refundReference: string;
  reason: string | null;
  createdBy: string;
  createdByUserId: number | null;
  idempotencyKey: string | null;
  requestFingerprint: string | null;
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  failureReason?: string | null;
  decidedAt?: string | null;
}

/**
 * Writes one status event to the projection: the history entry and the payment row.
 * Idempotent by (payment id, sequence): a retried or replayed activity writes nothing twice.
 * The workflow is the only writer, and what its history holds is the truth: an entry left by a
 * workflow task that never completed (the worker died after its local activities ran) is replaced
 * when the replayed task decides differently at that sequence, and the row follows it.
 */
export function paymentProjectionActivities(deps: ActivityDeps, resolver: Pick<AcquirerResolver, 'knownTakenBy'> = resolverOf(deps)) {
  const { db } = deps;
  return {
    async recordStatusEvent({ paymentId, event, fields, refund, billId }: RecordStatusEventInput): Promise<void> {
      const occurredAt = new Date(event.occurredAt);
      const expectedFee = event.status === 'CAPTURED' ? await expectedFeeOfCapture(db, paymentId, fields, resolver) : undefined;
      const [written] = await db.$transaction([
        db.$executeRaw`
          INSERT INTO "PaymentHistory" ("paymentId", "sequence", "status", "previousStatus", "actionReference", "source", "occurredAt")
          VALUES (${paymentId}, ${event.sequence}, ${event.status}, ${event.previousStatus}, ${event.actionReference}, ${event.source}, ${occurredAt})
          ON CONFLICT ("paymentId", "sequence") DO UPDATE SET
            "status" = EXCLUDED."status", "previousStatus" = EXCLUDED."previousStatus",
            "actionReference" = EXCLUDED."actionReference", "source" = EXCLUDED."source", "occurredAt" = EXCLUDED."occurredAt"
          WHERE ("PaymentHistory"."status", "PaymentHistory"."previousStatus", "PaymentHistory"."actionReference", "PaymentHistory"."source")
            IS DISTINCT FROM (EXCLUDED."status", EXCLUDED."previousStatus", EXCLUDED."actionReference", EXCLUDED."source")`,
        db.payment.updateMany({
          where: { id: paymentId, historySequence: { lte: event.sequence } },
          data: {
            ...projectedColumns(fields),
            ...(expectedFee !== undefined ? { expectedFee } : {}),
            historySequence: event.sequence,
            // The status event's time: the create answers with it without reading the row again (src/payments/projectedRow.ts).
            updatedAt: occurredAt,
          },
        }),
        ...(refund
          ? [db.refund.updateMany({ where: { id: refund.id, status: 'PENDING' }, data: { status: refund.status, decidedAt: new Date(refund.decidedAt) } })]
          : []),
      ]);
      // counted once per status event: a retried activity writes nothing and counts nothing
      if (written > 0) paymentStatusEvents.inc({ status: event.status });
      // A nudge: the bill reads this row again. Sent on a retry too (the first may have been lost).
      if (billId) await nudgeBill(deps, billId, paymentId);
    },

    /**
     * The row as it stands when a later run starts (docs/architecture.md, "One writer per
     * payment"): the run's input was read by its starter, possibly before the run before it wrote
     * its last changes; the earlier run has ended when this runs, so the row is complete.
     */
    async readPaymentSnapshot({ paymentId }: { paymentId: string }): Promise<PaymentSnapshot> {
      const p = await db.payment.findUniqueOrThrow({ where: { id: paymentId } });
      return {
        fields: {
          status: p.status as PaymentStatus,
          acquirerRef: p.acquirerRef,
          paymentMethod: (p.paymentMethod as PaymentMode | null) ?? null,
          cardBrand: p.cardBrand,
          last4: p.last4,
          reason: p.reason,
          refusalReason: p.refusalReason,
          previousStatus: (p.previousStatus as PaymentStatus | null) ?? null,
          capturedAt: p.capturedAt?.toISOString() ?? null,
          settledAt: p.settledAt?.toISOString() ?? null,
          authorizedAt: p.authorizedAt?.toISOString() ?? null,
          capturedAmount: p.capturedAmount?.toFixed() ?? null,
          refundedAmount: p.refundedAmount.toFixed(),
          // A partial authorisation: the approved amount and the amount asked.
          ...(p.requestedAmount !== null ? { amount: p.amount.toFixed(), requestedAmount: p.requestedAmount.toFixed() } : {}),
          // The tip on top (docs/tips.md), once there is one.
          ...(p.tipAmount.isZero() ? {} : { tipAmount: p.tipAmount.toFixed() }),
        },
        sequence: p.historySequence,
        pendingRefunds: await pendingRefundsOf(db, paymentId),
        disputes: await disputesOf(db, paymentId),
      };
    },

    /** The payment's disputes as their rows stand (a disputeChanged signal is only a reason to read them). */
    async readPaymentDisputes({ paymentId }: { paymentId: string }): Promise<PaymentDisputeFacts[]> {
      return disputesOf(db, paymentId);
    },

    /**
     * The refunds of this payment that exist as accepted rows still PENDING, among those named: a
     * run adopts only these, whoever handed it the others (a resumeRefunds signal can come from
     * anyone who reaches Temporal; the refund it carries is taken from the row, never from it).
     */
    async readPendingRefunds({ paymentId, refundIds }: { paymentId: string; refundIds: string[] }): Promise<PendingRefund[]> {
      const ids = refundIds.filter((id) => typeof id === 'string').slice(0, MAX_REFUNDS_CHECKED);
      if (ids.length === 0) return [];
      const rows = await db.refund.findMany({ where: { paymentId, status: 'PENDING', id: { in: ids } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
      return rows.map(pendingRefundOf);
    },

    /**
     * Writes a refund row: created PENDING once (a retry changes nothing), then its decision. Only
     * the payment's workflow calls this, so a refund row never races its payment's status.
     */
    async recordRefund(input: RecordRefundInput): Promise<void> {
      const payment = await db.payment.findUniqueOrThrow({ where: { id: input.paymentId }, select: { merchantId: true, mode: true, currency: true } });
      const decided =
        input.status === 'PENDING'
          ? {}
          : { status: input.status, failureReason: input.failureReason ?? null, decidedAt: input.decidedAt ? new Date(input.decidedAt) : new Date() };
      await db.refund.upsert({
        where: { id: input.id },
        create: {
          id: input.id,
          merchantId: payment.merchantId,
          paymentId: input.paymentId,
          mode: payment.mode,
          refundReference: input.refundReference,
          amount: input.amount,
          currency: payment.currency,
          status: 'PENDING',
          reason: input.reason,
          idempotencyKey: input.idempotencyKey,
          requestFingerprint: input.requestFingerprint,
          createdBy: input.createdBy,
          createdByUserId: input.createdByUserId,
          ...decided,
        },
        update: decided,
      });
    },
  };
}

/** The cost contract's fee for a capture (docs/payouts-and-fees.md, "The expected fee"): priced once, when the payment's writer records it CAPTURED. */
async function expectedFeeOfCapture(
  db: Db,
  paymentId: string,
  fields: ProjectedFields,
  resolver: Pick<AcquirerResolver, 'knownTakenBy'>,
): Promise<string | null | undefined> {
  if (!fields.capturedAt || !fields.capturedAmount) return undefined;
  // Taken by the installation's acquirer (known to this worker since its bill was sent): no contract prices it.
  const takenBy = resolver.knownTakenBy(paymentId);
  if (takenBy && !takenBy.acquirerAccountId) return undefined;
  const p = await db.payment.findUnique({ where: { id: paymentId }, select: { acquirerAccountId: true, currency: true } });
  if (!p?.acquirerAccountId) return undefined;
  return expectedFeeAtCapture(db, {
    acquirerAccountId: p.acquirerAccountId,
    currency: p.currency,
    capturedAt: new Date(fields.capturedAt),
    capturedAmount: fields.capturedAmount,
    paymentMethod: fields.paymentMethod,
    cardBrand: fields.cardBrand,
  });
}
