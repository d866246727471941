import { z } from '../domain/zod';
import type { Payout } from '../generated/prisma/client';

/** A payout as the API answers it (docs/payouts-and-fees.md, "Payouts"). */
const num = (d: { toFixed(): string } | null): number | null => (d === null ? null : Number(d.toFixed()));

export const PayoutStatusSchema = z.enum(['IN_TRANSIT', 'PAID', 'FAILED']);

export const PayoutRecord = z
  .object({
    id: z.string(),
    acquirerAccountId: z.string().nullable().openapi({ description: 'The account whose report it pays; null: the installation default' }),
    acquirerPayoutId: z.string(),
    status: PayoutStatusSchema,
    amount: z.number(),
    currency: z.string(),
    arrivalDate: z.string().openapi({ description: 'YYYY-MM-DD: when the bank credits (or credited) it' }),
    batchIds: z.array(z.string()),
    expectedAmount: z.number().nullable().openapi({ description: 'The net of the batch lines it pays; null until those batches are reconciled' }),
    reconciled: z.boolean().openapi({ description: 'amount equals expectedAmount' }),
    discrepancy: z
      .object({ type: z.literal('PAYOUT_MISMATCH'), expectedAmount: z.number(), amount: z.number() })
      .nullable()
      .openapi({ description: 'PAYOUT_MISMATCH when the acquirer paid another amount than the batches it pays net to' }),
    failureReason: z.string().nullable().openapi({ description: 'A FAILED payout: what the bank said' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Payout');
export type PayoutRecord = z.infer<typeof PayoutRecord>;

export function toPayoutRecord(p: Payout): PayoutRecord {
  const expected = num(p.expectedAmount);
  return {
    id: p.id,
    acquirerAccountId: p.acquirerAccountId,
    acquirerPayoutId: p.acquirerPayoutId,
    status: p.status as PayoutRecord['status'],
    amount: num(p.amount)!,
    currency: p.currency,
    arrivalDate: p.arrivalDate,
    batchIds: p.batchIds,
    expectedAmount: expected,
    reconciled: p.reconciled,
    discrepancy: expected !== null && !p.reconciled ? { type: 'PAYOUT_MISMATCH', expectedAmount: expected, amount: num(p.amount)! } : null,
    failureReason: p.failureReason,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}
