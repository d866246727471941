import { z } from '../domain/zod';
import { currencyCode, requiredText } from '../domain/fields';
import { PagingQuery } from '../domain/listQuery';
import { amountSchema } from '../money/amount';
import { BILL_STATUSES, TENDER_METHODS, TILL_TENDER_METHODS } from '../../core/bill/statuses';

/** Request and response schemas of bills (docs/bills.md). Bodies are strict: an unknown field is a 400. */

export const CreateBillBody = z
  .strictObject({
    merchantExternalId: requiredText(200).openapi({ description: "The business identifier; must be the API key's own business" }),
    storeExternalId: requiredText(200).openapi({ description: 'A registered store of the business' }),
    reference: requiredText(100).openapi({ description: "The till's own bill reference: the same create again, while the bill is not final, finds it" }),
    amount: amountSchema().openapi({ example: 40, description: "What the customer owes, greater than zero, at most the currency's minor-unit decimals" }),
    currency: currencyCode().openapi({ example: 'EUR', description: 'ISO 4217, one of the supported currencies (any case on input)' }),
    timeoutMinutes: z
      .number({ error: 'must be an integer' })
      .int('must be an integer')
      .min(1, 'must be between 1 and 1440')
      .max(1440, 'must be between 1 and 1440')
      .optional()
      .openapi({ description: 'How long the bill stays OPEN before the service gives it back; default BILL_TIMEOUT_MINUTES (30)' }),
  })
  .openapi('CreateBillRequest');
export type CreateBillBody = z.infer<typeof CreateBillBody>;

export const TillTenderBody = z
  .strictObject({
    method: z
      .enum(TILL_TENDER_METHODS, { error: 'must be CASH or OTHER' })
      .openapi({ description: 'CASH, or OTHER (a voucher, a gift card the till redeems itself)' }),
    amount: amountSchema().openapi({ example: 15, description: 'At most what remains of the bill less what its open tenders hold' }),
    reference: requiredText(100).optional().openapi({ description: "The till's own reference of the tender" }),
  })
  .openapi('TillTenderRequest');
export type TillTenderBody = z.infer<typeof TillTenderBody>;

export const BillParams = z.object({ id: z.uuid({ error: 'must be a bill id (a UUID)' }) });

export const BillListQuery = PagingQuery.extend({
  storeExternalId: requiredText(200).optional(),
  status: z.enum(BILL_STATUSES, { error: `must be one of ${BILL_STATUSES.join(', ')}` }).optional(),
});
export type BillListQuery = z.infer<typeof BillListQuery>;

export const BillTenderSchema = z
  .object({
    paymentId: z.string().nullable().openapi({ description: 'The payment of a card or QR tender; null for cash or another tender the till took' }),
    sequenceNumber: z.number().int(),
    status: z.string().openapi({ description: "The payment's status, or RECEIVED for a tender taken at the till" }),
    method: z.enum(TENDER_METHODS).nullable(),
    amount: z.number().openapi({ description: 'What it counts toward the bill: the approved amount (the amount asked while open)' }),
    requestedAmount: z.number(),
    tipAmount: z.number(),
  })
  .openapi('BillTender');

export const BillRecordSchema = z
  .object({
    id: z.string(),
    reference: z.string(),
    storeExternalId: z.string(),
    amount: z.number(),
    currency: z.string(),
    paidAmount: z.number(),
    remainingAmount: z.number(),
    status: z.enum(BILL_STATUSES),
    tenders: z.array(BillTenderSchema),
    expiresAt: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Bill');
