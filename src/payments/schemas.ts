import Decimal from 'decimal.js';
import { z } from '../domain/zod';
import { currencyCode, requiredText } from '../domain/fields';
import { amountSchema, MAX_AMOUNT } from '../money/amount';
import { SUPPORTED_CURRENCIES } from '../money/currencies';
import { PAYMENT_MODES, PAYMENT_STATUSES } from '../../core/payment/statuses';
import { DISPUTE_STATUSES } from '../../core/dispute/statuses';

/**
 * Request and response schemas of in-store payments (docs/payments.md). The creation
 * body is strict (an unknown field is a 400). Rules that need configuration (the timeout bounds)
 * are checked by the creation service, with the same message style.
 */

export const PaymentModeSchema = z.enum(PAYMENT_MODES as unknown as ['CARD', 'QR_CODE'], { error: 'must be CARD or QR_CODE' });

/** Number of decimals a JSON number carries, exactly (12.5 -> 1, 1e-7 -> 7). */
export function decimalPlaces(n: number): number {
  return new Decimal(n.toString()).decimalPlaces();
}

export const CreatePaymentBody = z
  .strictObject({
    merchantExternalId: requiredText(200).openapi({ description: "The business identifier; must be the API key's own business" }),
    storeExternalId: requiredText(200).openapi({ description: 'A registered store of the business' }),
    terminalExternalId: requiredText(200).openapi({ description: 'A terminal of that store, linked to its device' }),
    amount: amountSchema().openapi({ example: 12.5, description: "Greater than zero, at most the currency's minor-unit decimals (2 for EUR, 0 for JPY)" }),
    currency: currencyCode().openapi({ example: 'EUR', description: 'ISO 4217, one of the supported currencies (any case on input)' }),
    reference: requiredText(100)
      .optional()
      .openapi({ description: "The caller's own bill reference; protects creation against duplicates while the payment is open" }),
    sequenceNumber: z
      .number({ error: 'must be a positive integer' })
      .int('must be a positive integer')
      .positive('must be a positive integer')
      .max(1_000_000, 'must be at most 1000000')
      .optional()
      .openapi({ description: 'Position of this tender when one bill is split (1, 2, 3, ...)' }),
    requestedModes: z
      .array(PaymentModeSchema, { error: 'must be an array of CARD, QR_CODE' })
      .min(1, 'must name at least one mode')
      .refine((modes) => new Set(modes).size === modes.length, 'must not name a mode twice')
      .optional()
      .openapi({ description: 'One mode restricts the device to it; omitted or several allow every mode the device offers' }),
    terminalTimeoutMinutes: z
      .number({ error: 'must be a number' })
      .positive('must be greater than 0')
      .optional()
      .openapi({ description: 'How long the device waits for the customer; decimals allowed; default and bounds from configuration' }),
    allowPartialAuthorisation: z.boolean({ error: 'must be a boolean' }).optional().openapi({
      description:
        'true: a card may approve less than the amount (a prepaid, gift or debit card with a smaller balance); the payment then ends CAPTURED (AUTHORIZED on a two-step terminal) with `amount` the approved amount and `requestedAmount` the amount asked. false: such a card is REFUSED. Default false',
    }),
    tip: z.literal('ASK', { error: 'must be "ASK"' }).optional().openapi({
      description:
        "\"ASK\": the terminal offers the store's tip percentages and, when the store allows it, an amount of the customer's own; the card is charged the amount plus the tip chosen. 400 where the store's tipping is off (docs/tips.md)",
    }),
    tipAmount: z
      .number({ error: 'must be a number' })
      .min(0, 'must be 0 or more')
      .max(MAX_AMOUNT, `must be at most ${MAX_AMOUNT}`)
      .optional()
      .openapi({ description: 'A tip the POS already knows, charged on top of the amount: 0 or more, at most the amount; not with tip (docs/tips.md)' }),
    cashierId: requiredText(100).optional(),
    customerMobile: requiredText(40).optional(),
    customerEmail: z.email({ error: 'must be an email address' }).max(254, 'must be at most 254 characters').optional(),
    billId: z.uuid({ error: 'must be a bill id (a UUID)' }).optional().openapi({
      description:
        "The bill this payment is a tender of (docs/bills.md): at most what remains of it less what its open tenders hold; the bill's currency and store",
    }),
  })
  .superRefine((body, ctx) => {
    const currency = typeof body.currency === 'string' ? SUPPORTED_CURRENCIES[body.currency.toUpperCase()] : undefined;
    if (currency && typeof body.amount === 'number' && decimalPlaces(body.amount) > currency.minorUnits) {
      ctx.addIssue({
        code: 'custom',
        path: ['amount'],
        message:
          currency.minorUnits === 0
            ? `must be a whole number for ${body.currency.toUpperCase()}`
            : `must have at most ${currency.minorUnits} decimal places for ${body.currency.toUpperCase()}`,
      });
    }
    if (body.tip !== undefined && body.tipAmount !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['tip'], message: 'must not be sent together with tipAmount: ask the terminal, or send the tip the POS knows' });
    }
    if (typeof body.tipAmount === 'number') {
      if (currency && decimalPlaces(body.tipAmount) > currency.minorUnits) {
        ctx.addIssue({
          code: 'custom',
          path: ['tipAmount'],
          message: `must have at most ${currency.minorUnits} decimal places for ${body.currency.toUpperCase()}`,
        });
      }
      if (typeof body.amount === 'number' && body.tipAmount > body.amount) {
        ctx.addIssue({ code: 'custom', path: ['tipAmount'], message: `must be at most the amount ${body.amount}` });
      }
    }
    if (typeof body.terminalTimeoutMinutes === 'number' && decimalPlaces(body.terminalTimeoutMinutes) > 4) {
      ctx.addIssue({ code: 'custom', path: ['terminalTimeoutMinutes'], message: 'must have at most 4 decimal places' });
    }
  })
  .openapi('CreatePaymentRequest');
export type CreatePaymentBody = z.infer<typeof CreatePaymentBody>;

/** Two-step completion (docs/payments.md, "Two-step completion"): the amount to capture, all of it when absent. */
export const CaptureBody = z
  .strictObject({
    amount: amountSchema().optional().openapi({ description: 'At most the authorised total (amount plus tip); default all of it' }),
  })
  .optional()
  .openapi('CaptureRequest');

export const PaymentParams = z.object({ id: z.string().min(1).max(100).openapi({ description: 'The payment id (opaque text)' }) });

export const PaymentRecordSchema = z
  .object({
    id: z.string().openapi({ description: 'Opaque text; return unchanged, never parse as a number' }),
    pspReference: z.string(),
    status: z.enum(PAYMENT_STATUSES),
    amount: z.number().openapi({ description: 'What the card approved: the amount asked, or less after a partial authorisation' }),
    requestedAmount: z.number().openapi({ description: 'The amount asked at creation; equals amount unless a card approved less (allowPartialAuthorisation)' }),
    allowPartialAuthorisation: z.boolean().openapi({ description: 'As sent at creation (default false): whether a card may approve less than asked' }),
    tipAmount: z.number().openapi({ description: 'The tip charged on top of amount (docs/tips.md); 0 when none' }),
    totalAmount: z.number().openapi({ description: 'amount + tipAmount: what the card was charged' }),
    tipAsked: z.boolean().openapi({ description: 'true when the payment asked the terminal for a tip (tip "ASK")' }),
    currency: z.string(),
    reference: z.string().nullable(),
    sequenceNumber: z.number().int().nullable(),
    billId: z.string().nullable().openapi({ description: 'The bill the payment is a tender of (docs/bills.md); null for a payment of its own' }),
    storeExternalId: z.string(),
    terminalExternalId: z.string(),
    paymentMethod: z
      .string()
      .nullable()
      .openapi({ description: 'CARD or QR_CODE: the single requested mode, else CARD until the terminal reports the tender' }),
    cardBrand: z.string().nullable(),
    last4: z.string().nullable(),
    previousStatus: z.string().nullable().openapi({ description: 'CAPTURED once a void made the payment CANCELLED' }),
    reason: z.string().nullable().openapi({ description: 'CANCELLED_AT_TERMINAL after a cancel on the device; explains ERROR, FAILED and operator clears' }),
    refusalReason: z.string().nullable().openapi({ description: "The provider's explanation of a REFUSED payment" }),
    createdAt: z.string(),
    updatedAt: z.string(),
    capturedAt: z.string().nullable(),
    capturedAmount: z.number().nullable().openapi({
      description: 'null until captured; what the card was charged, tip included: totalAmount for one-step payments, at most it for a two-step completion',
    }),
    refundedAmount: z.number().openapi({ description: 'The sum of succeeded refunds; 0 until a refund succeeds; at most capturedAmount (the tip included)' }),
    settledAt: z.string().nullable().openapi({ description: 'When the acquirer settled the payment; null until then' }),
    mode: z.enum(['live', 'test']).openapi({ description: 'The mode of the API key that took the payment' }),
    origin: z.enum(['PLATFORM', 'SETTLEMENT_REPORT']).openapi({ description: 'PLATFORM, or SETTLEMENT_REPORT for a payment first seen in an acquirer report' }),
    cashierId: z.string().nullable().openapi({ description: 'As sent at creation; passed to the acquirer for the receipt' }),
    customerMobile: z.string().nullable().openapi({ description: 'As sent at creation; passed to the acquirer for the receipt' }),
    customerEmail: z.string().nullable().openapi({ description: 'As sent at creation; passed to the acquirer for the receipt' }),
    acquirerAccountId: z.string().nullable().openapi({ description: 'The acquirer account its route chose; null: the installation default' }),
    acquirerName: z.string().openapi({ description: 'The acquirer that took it', example: 'sandbox' }),
    routeRule: z.string().openapi({ description: 'The route rule that chose the account: its name, `default`, or `installation`' }),
    expectedFee: z.number().nullable().optional().openapi({
      description:
        "The fee the account's cost contract in force at the capture gives it; null without a contract, or until captured. Only for callers who may read cost contracts (an ADMIN or FINANCE session): absent for other roles and for API keys",
    }),
    disputeStatus: z.enum(DISPUTE_STATUSES).nullable().openapi({
      description: 'The status of its latest dispute; null when it has none. While NEEDS_RESPONSE or UNDER_REVIEW, refunds and voids are 409',
    }),
  })
  .openapi('Payment');
