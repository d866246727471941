import { Prisma, type Payment } from '../generated/prisma/client';
import type { ProjectedFields } from '../../core/payment/transition';

/**
 * The payment row's columns a status event's projection writes (docs/architecture.md, "One writer
 * per payment"), from the fields the workflow decided: one mapping for the projection's write
 * (activities/payments/projection.ts) and for the create's answer, which is built from the
 * placement's outcome instead of read again (src/payments/createPayment.ts). A field a run from
 * before it existed does not carry is left out: the row keeps what it has. The columns are the
 * projected fields' own names (core/payment/transition.ts, ProjectedFields).
 */
export type ProjectedColumns = Partial<Pick<Payment, keyof ProjectedFields>>;

const at = (iso: string | null): Date | null => (iso ? new Date(iso) : null);
const decimal = (text: string): Prisma.Decimal => new Prisma.Decimal(text);

export function projectedColumns(fields: ProjectedFields): ProjectedColumns {
  return {
    status: fields.status,
    acquirerRef: fields.acquirerRef,
    paymentMethod: fields.paymentMethod,
    cardBrand: fields.cardBrand,
    last4: fields.last4,
    reason: fields.reason,
    refusalReason: fields.refusalReason,
    previousStatus: fields.previousStatus,
    capturedAt: at(fields.capturedAt),
    ...(fields.settledAt ? { settledAt: new Date(fields.settledAt) } : {}),
    authorizedAt: at(fields.authorizedAt),
    ...(fields.amount !== undefined ? { amount: decimal(fields.amount) } : {}),
    ...(fields.requestedAmount !== undefined ? { requestedAmount: decimal(fields.requestedAmount) } : {}),
    ...(fields.tipAmount !== undefined ? { tipAmount: decimal(fields.tipAmount) } : {}),
    ...(fields.capturedAmount !== undefined ? { capturedAmount: fields.capturedAmount === null ? null : decimal(fields.capturedAmount) } : {}),
    ...(fields.refundedAmount !== undefined ? { refundedAmount: decimal(fields.refundedAmount) } : {}),
  };
}

/**
 * The row as the placement's projection left it (the first status event, nothing written since):
 * the inserted row with that event's columns, its sequence, and `updatedAt` the event's time (the
 * projection writes it so).
 */
export function rowAfterPlacement(inserted: Payment, placed: { fields: ProjectedFields; sequence: number; occurredAt: string }): Payment {
  return { ...inserted, ...projectedColumns(placed.fields), historySequence: placed.sequence, updatedAt: new Date(placed.occurredAt) };
}
