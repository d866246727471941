import Decimal from 'decimal.js';
import { z } from '../domain/zod';
import { currencyCode } from '../domain/fields';
import { MAX_AMOUNT } from '../money/amount';
import { minorUnitsOf } from '../money/currencies';
import { PaymentModeSchema } from '../payments/schemas';

/** Request and answer shapes of cost contracts (docs/payouts-and-fees.md, "Cost contracts"). Money and percentages are JSON numbers in, exact decimals kept. */
const Currency = currencyCode().transform((v) => v.toUpperCase());
const decimalsOf = (n: number) => new Decimal(n.toString()).decimalPlaces();
const money = z.number({ error: 'must be a number' }).min(0, 'must be 0 or more').max(MAX_AMOUNT, `must be at most ${MAX_AMOUNT}`);

export const MAX_COST_LINES = 50;

export const CostLineInput = z
  .strictObject({
    paymentMode: PaymentModeSchema,
    cardBrand: z
      .string({ error: 'must be a string' })
      .trim()
      .min(1, 'must not be empty; leave it out for every brand')
      .max(30, 'must be at most 30 characters')
      .regex(/^[A-Za-z0-9_ -]+$/, 'must be a card brand name such as VISA')
      .transform((v) => v.toUpperCase())
      .optional(),
    percent: z
      .number({ error: 'must be a number' })
      .min(0, 'must be 0 or more')
      .max(100, 'must be at most 100')
      .refine((v) => decimalsOf(v) <= 4, 'must have at most 4 decimal places'),
    fixed: money,
  })
  .openapi('CostContractLine');

export const CostContractBody = z
  .strictObject({
    currency: Currency,
    lines: z.array(CostLineInput).min(1, 'must have at least one line').max(MAX_COST_LINES, `must have at most ${MAX_COST_LINES} lines`),
    disputeFee: money.optional().openapi({ description: 'What the acquirer charges per dispute, in the currency' }),
  })
  .superRefine((body, ctx) => {
    // The currency's minor unit bounds every amount of the contract; each (mode, brand) is priced once.
    const minor = minorUnitsOf(body.currency);
    const seen = new Set<string>();
    body.lines.forEach((line, i) => {
      if (decimalsOf(line.fixed) > minor)
        ctx.addIssue({ code: 'custom', path: ['lines', i, 'fixed'], message: `must have at most ${minor} decimal places for ${body.currency}` });
      const key = `${line.paymentMode} ${line.cardBrand ?? ''}`;
      if (seen.has(key))
        ctx.addIssue({ code: 'custom', path: ['lines', i], message: `prices ${line.paymentMode}${line.cardBrand ? ` ${line.cardBrand}` : ''} a second time` });
      seen.add(key);
    });
    if (body.disputeFee !== undefined && decimalsOf(body.disputeFee) > minor)
      ctx.addIssue({ code: 'custom', path: ['disputeFee'], message: `must have at most ${minor} decimal places for ${body.currency}` });
  })
  .openapi('CostContractRequest');
export type CostContractBody = z.infer<typeof CostContractBody>;

export const CostContractParams = z.object({ id: z.string().max(100, 'must be an account id') });
export const CostContractQuery = z.object({ currency: Currency });

export const CostContractRecord = z
  .object({
    accountId: z.string(),
    currency: z.string(),
    lines: z.array(
      z.object({ paymentMode: PaymentModeSchema, cardBrand: z.string().optional(), percent: z.number(), fixed: z.number() }).openapi('CostContractLineRecord'),
    ),
    disputeFee: z.number().nullable(),
    version: z.number().int().openapi({ description: 'Counts saves per account and currency from 1' }),
    validFrom: z.string().openapi({ description: 'From when this version prices captured payments' }),
  })
  .openapi('CostContract');
export type CostContractRecord = z.infer<typeof CostContractRecord>;
