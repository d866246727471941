import { dateRange, PagingQuery } from '../domain/listQuery';
import { z } from '../domain/zod';
import type { Dispute } from '../generated/prisma/client';
import { DISPUTE_REASONS, DISPUTE_STATUSES, EVIDENCE_TEXT_MAX } from '../../core/dispute/statuses';

/**
 * The dispute record (README, "Disputes"; docs/disputes.md), exactly its fields, as every endpoint returns it. `amount` a
 * JSON number from the exact decimal (as payments); `evidence.text` the statement as stored, text
 * and nothing else (the dashboard shows it as text).
 */
export const DisputeRecordSchema = z
  .object({
    id: z.string(),
    paymentId: z.string(),
    pspReference: z.string(),
    storeExternalId: z.string(),
    acquirerAccountId: z.string().nullable().openapi({ description: "The payment's acquirer account; null: the installation default" }),
    acquirerDisputeId: z.string().openapi({ description: "The acquirer's own id of the dispute" }),
    status: z.enum(DISPUTE_STATUSES).openapi({ description: 'WON, LOST, ACCEPTED and EXPIRED are final' }),
    reason: z.enum(DISPUTE_REASONS),
    amount: z.number().openapi({ description: 'The disputed amount' }),
    currency: z.string(),
    openedAt: z.string(),
    dueBy: z.string().openapi({ description: 'Nothing submitted or accepted by then: EXPIRED' }),
    evidence: z
      .object({
        transaction: z.record(z.string(), z.unknown()).openapi({
          description:
            'Assembled by the service from its records when the dispute opened: pspReference, reference, amount, currency, capturedAt, paymentMethod, cardBrand, last4, storeName, storeAddress, terminalExternalId, terminalSerialNumber, cashierId, statusHistory, refunds',
        }),
        text: z.string().nullable().openapi({ description: "The merchant's statement; null until written" }),
      })
      .openapi('DisputeEvidence'),
    submittedAt: z.string().nullable(),
    closedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Dispute');
export type DisputeRecord = z.infer<typeof DisputeRecordSchema>;

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export function toDisputeRecord(d: Dispute): DisputeRecord {
  const evidence = (d.evidence ?? {}) as { transaction?: Record<string, unknown>; text?: string | null };
  return {
    id: d.id,
    paymentId: d.paymentId,
    pspReference: d.pspReference,
    storeExternalId: d.storeExternalId,
    acquirerAccountId: d.acquirerAccountId,
    acquirerDisputeId: d.acquirerDisputeId,
    status: d.status as DisputeRecord['status'],
    reason: d.reason as DisputeRecord['reason'],
    amount: Number(d.amount.toFixed()),
    currency: d.currency,
    openedAt: d.openedAt.toISOString(),
    dueBy: d.dueBy.toISOString(),
    evidence: { transaction: evidence.transaction ?? {}, text: typeof evidence.text === 'string' ? evidence.text : null },
    submittedAt: iso(d.submittedAt),
    closedAt: iso(d.closedAt),
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  };
}

/** The list's filters (README, "Disputes") and paging (README, "Conventions of every endpoint"); `from`/`to` compare openedAt. */
export const DisputeListQuery = PagingQuery.extend({
  status: z.enum(DISPUTE_STATUSES, { message: `must be one of ${DISPUTE_STATUSES.join(', ')}` }).optional(),
  storeExternalId: z.string().min(1).max(200).optional(),
  paymentId: z.uuid('must be a payment id').optional().openapi({ description: "Only this payment's disputes (the payment page links here)" }),
  ...dateRange(', ISO 8601 date or date-time, compared with openedAt'),
}).strict();
export type DisputeListQuery = z.infer<typeof DisputeListQuery>;

export const DisputeIdParams = z.object({ id: z.uuid('must be a dispute id') });

/** The statement: 1-20000 characters of text, stored as given. */
export const EvidenceBody = z
  .strictObject({
    text: z
      .string({ message: 'must be a string' })
      .min(1, 'must be 1-20000 characters')
      .max(EVIDENCE_TEXT_MAX, 'must be 1-20000 characters')
      .openapi({ description: "The merchant's statement, 1-20000 characters, stored and shown as text" }),
  })
  .openapi('DisputeEvidenceRequest');
