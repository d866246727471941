import type { Refund } from '../generated/prisma/client';
import { z } from '../domain/zod';
import { amountSchema } from '../money/amount';

/** The refund (docs/refunds.md, "Endpoints"), as every endpoint returns it; amount a JSON number from the exact decimal. */
export interface RefundRecord {
  id: string;
  paymentId: string;
  amount: number;
  currency: string;
  status: string;
  reason: string | null;
  failureReason: string | null;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

export function toRefundRecord(r: Refund): RefundRecord {
  return {
    id: r.id,
    paymentId: r.paymentId,
    amount: Number(r.amount.toFixed()),
    currency: r.currency,
    status: r.status,
    reason: r.reason,
    failureReason: r.failureReason,
    createdBy: r.createdBy,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export const RefundRecordSchema = z
  .object({
    id: z.string(),
    paymentId: z.string(),
    amount: z.number(),
    currency: z.string(),
    status: z.enum(['PENDING', 'SUCCEEDED', 'FAILED']).openapi({ description: 'PENDING until the acquirer decides; the service follows it until then' }),
    reason: z.string().nullable(),
    failureReason: z.string().nullable().openapi({ description: "The acquirer's explanation of a FAILED refund" }),
    createdBy: z.string().openapi({ description: 'Username of the dashboard user who asked for it' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Refund');

export const CreateRefundBody = z
  .strictObject({
    amount: amountSchema()
      .optional()
      .openapi({ description: "Default: all that is still refundable; at most the currency's minor-unit decimals and at most 999999999999" }),
    reason: z.string({ error: 'must be a string' }).max(500, 'must be at most 500 characters').optional(),
  })
  .optional()
  .openapi('CreateRefundRequest');
export type CreateRefundBody = z.infer<typeof CreateRefundBody>;
