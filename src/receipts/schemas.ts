import { z } from '../domain/zod';

/** The receipt read and the dashboard's send (docs/receipts.md). */
export const ReceiptQuery = z
  .strictObject({
    format: z
      .enum(['json', 'html'], { error: "must be 'json' or 'html'" })
      .optional()
      .openapi({ description: 'html: a printable page (text/html, no script); default json' }),
  })
  .openapi('ReceiptQuery');

export const ReceiptSchema = z
  .object({
    paymentId: z.string(),
    merchantName: z.string(),
    storeName: z.string(),
    storeAddress: z.string().nullable(),
    terminalLabel: z.string().nullable(),
    reference: z.string().nullable(),
    pspReference: z.string(),
    status: z.string(),
    paymentMethod: z.string().nullable(),
    cardBrand: z.string().nullable(),
    last4: z.string().nullable(),
    amount: z.number(),
    tipAmount: z.number().openapi({ description: 'The tip charged on top of the amount; 0 when none' }),
    totalAmount: z.number().openapi({ description: 'amount + tipAmount: what the card was charged' }),
    refundedAmount: z.number(),
    currency: z.string(),
    cashierId: z.string().nullable(),
    occurredAt: z
      .string()
      .openapi({ description: "When it was captured (or authorised), in the store's time zone with its offset", example: '2026-11-28T10:40:20+01:00' }),
    lines: z.array(z.string()).openapi({ description: "The printable receipt: at most 48 characters a line, money with the currency's symbol and decimals" }),
  })
  .openapi('Receipt');

export const SendReceiptBody = z
  .strictObject({
    email: z.email({ error: 'must be an email address' }).max(254, 'must be at most 254 characters').openapi({ example: 'jane@example.com' }),
  })
  .openapi('SendReceiptRequest');

export const SendReceiptAnswer = z
  .object({
    receiptId: z.string(),
    to: z.string().openapi({ description: 'The address, masked', example: 'j***@example.com' }),
    status: z
      .literal('QUEUED')
      .openapi({ description: 'Sent in the background, retried while the mail server is down; RECEIPT_SENT or RECEIPT_FAILED follow' }),
  })
  .openapi('SendReceiptAnswer');
