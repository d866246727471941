import { Router } from '@koa/router';
import { z } from 'zod';
import type { AcquirerCallLog } from './callLog';
import type { SandboxEngine } from './engine';
import { deviceIdSchema, merchantAccountIdSchema, modeSchema, parse, refSchema } from './http';
import { isSupportedCurrency, minorUnitsOf } from '../../money/currencies';

/**
 * The control endpoints (docs/acquirers.md, "The sandbox acquirer"): they play the network (device settings) and the
 * customer (actions on the bill on the device). They work even when a device is "unreachable".
 */
const settingsSchema = z.strictObject({
  modes: z
    .array(modeSchema)
    .min(1, 'must name at least one mode')
    .transform((m) => [...new Set(m)])
    .optional(),
  twoStep: z.boolean().optional(),
  voidSupported: z.boolean().optional(),
  reachable: z.boolean().optional(),
  latencyMs: z.number().int('must be an integer').min(0, 'must be zero or more').max(120_000, 'must be at most 120000').optional(),
  voidConfirmDelayMs: z.number().int('must be an integer').min(0, 'must be zero or more').max(86_400_000, 'must be at most 86400000').optional(),
  omitFromReport: z.array(z.string().min(1).max(200)).max(10_000, 'must name at most 10000 references').optional(),
  refundOutcome: z.enum(['SUCCEEDED', 'FAILED'], { error: "must be 'SUCCEEDED' or 'FAILED'" }).optional(),
  refundConfirmDelayMs: z.number().int('must be an integer').min(0, 'must be zero or more').max(86_400_000, 'must be at most 86400000').optional(),
  disputeOutcome: z.enum(['WON', 'LOST'], { error: "must be 'WON' or 'LOST'" }).optional(),
  disputeDecisionDelayMs: z.number().int('must be an integer').min(0, 'must be zero or more').max(86_400_000, 'must be at most 86400000').optional(),
});

const amountSchema = z
  .union([z.number(), z.string()])
  .transform((v) => (typeof v === 'number' ? String(v) : v))
  .pipe(
    z
      .string()
      .regex(/^\d{1,15}(\.\d{1,4})?$/, 'must be a positive decimal such as 12.50')
      .refine((v) => Number(v) > 0, 'must be greater than zero'),
  );

/** A tip the customer chose: 0 or more, as a decimal. */
const tipSchema = z
  .union([z.number(), z.string()])
  .transform((v) => (typeof v === 'number' ? String(v) : v))
  .pipe(z.string().regex(/^\d{1,15}(\.\d{1,4})?$/, 'must be a decimal of 0 or more such as 1.50'));

const offlineSchema = z
  .strictObject({
    merchantAccountId: merchantAccountIdSchema.optional(),
    amount: amountSchema,
    currency: z.string().refine((c) => isSupportedCurrency(c), 'must be a supported ISO 4217 code'),
    cardBrand: z.string().min(1).max(32).optional(),
    last4: z
      .string()
      .regex(/^\d{4}$/, 'must be four digits')
      .optional(),
  })
  .refine((p) => decimalsOf(p.amount) <= minorUnitsOf(p.currency), {
    message: "has more decimals than the currency's minor unit",
    path: ['amount'],
  });

/** A MID's terms (docs/payouts-and-fees.md, "The sandbox's terms per MID"): percentages 0-100 with up to 4 decimals, fixed parts >= 0. */
const percentSchema = z
  .union([z.number(), z.string()])
  .transform((v) => (typeof v === 'number' ? String(v) : v))
  .pipe(
    z
      .string()
      .regex(/^\d{1,3}(\.\d{1,4})?$/, 'must be a percentage such as 1.40')
      .refine((v) => Number(v) <= 100, 'must be at most 100'),
  );
const fixedSchema = z
  .union([z.number(), z.string()])
  .transform((v) => (typeof v === 'number' ? String(v) : v))
  .pipe(z.string().regex(/^\d{1,12}(\.\d{1,4})?$/, 'must be 0 or a positive decimal such as 0.10'));
const accountSchema = z.strictObject({
  cardPercent: percentSchema.optional(),
  cardFixed: fixedSchema.optional(),
  qrPercent: percentSchema.optional(),
  qrFixed: fixedSchema.optional(),
  payoutOutcome: z.enum(['PAID', 'FAILED'], { error: "must be 'PAID' or 'FAILED'" }).optional(),
  payoutDelayMs: z.number().int('must be an integer').min(0, 'must be zero or more').max(86_400_000, 'must be at most 86400000').optional(),
  payoutWithheld: fixedSchema.optional(),
});

/** The cardholder's bank opens a dispute (docs/disputes.md, "The sandbox"). */
const openDisputeSchema = z.strictObject({
  reason: z
    .enum(['FRAUD', 'NOT_RECEIVED', 'DUPLICATE', 'CREDIT_NOT_PROCESSED', 'GENERAL'], {
      error: 'must be one of FRAUD, NOT_RECEIVED, DUPLICATE, CREDIT_NOT_PROCESSED, GENERAL',
    })
    .optional(),
  amount: amountSchema.optional(),
  respondWithinHours: z
    .number()
    .positive('must be greater than zero')
    .max(24 * 365, 'must be at most 8760')
    .optional(),
  notify: z.boolean().optional(),
});

const decimalsOf = (v: string) => (v.split('.')[1] ?? '').replace(/0+$/, '').length;

const customerSchema = z.discriminatedUnion(
  'action',
  [
    z.strictObject({
      action: z.literal('pay'),
      mode: modeSchema.optional(),
      cardBrand: z.string().min(1).max(32).optional(),
      last4: z
        .string()
        .regex(/^\d{4}$/, 'must be four digits')
        .optional(),
      // The card approves only this much (a partial authorisation); below the amount, checked against the bill.
      approvedAmount: amountSchema.optional(),
      // The tip the customer chose on the device (docs/tips.md): used only when the bill asked for one.
      tipAmount: tipSchema.optional(),
    }),
    z.strictObject({ action: z.enum(['decline', 'cancel', 'error']) }),
  ],
  { error: "must be one of 'pay', 'decline', 'cancel', 'error'" },
);

export function controlRoutes(engine: SandboxEngine, calls?: AcquirerCallLog): Router {
  const router = new Router({ prefix: '/sim' });
  const id = (raw: string | undefined) => parse(deviceIdSchema, raw, 'deviceId');

  router.get('/devices/:deviceId', (ctx) => {
    ctx.body = engine.deviceView(id(ctx.params.deviceId));
  });

  router.put('/devices/:deviceId', async (ctx) => {
    const deviceId = id(ctx.params.deviceId);
    ctx.body = await engine.configureDevice(deviceId, parse(settingsSchema, ctx.request.body ?? {}));
  });

  router.post('/devices/:deviceId/customer', async (ctx) => {
    const deviceId = id(ctx.params.deviceId);
    ctx.body = await engine.customerAct(deviceId, parse(customerSchema, ctx.request.body ?? {}));
  });

  // A MID's terms: the fees its reports charge, and its payouts (docs/payouts-and-fees.md).
  router.get('/accounts/:merchantAccountId', (ctx) => {
    ctx.body = engine.accountView(parse(merchantAccountIdSchema, ctx.params.merchantAccountId, 'merchantAccountId'));
  });

  // What the bank received for the MID: its payouts, newest first.
  router.get('/accounts/:merchantAccountId/payouts', (ctx) => {
    ctx.body = engine.payoutsOf(parse(merchantAccountIdSchema, ctx.params.merchantAccountId, 'merchantAccountId'));
  });

  router.put('/accounts/:merchantAccountId', async (ctx) => {
    const mid = parse(merchantAccountIdSchema, ctx.params.merchantAccountId, 'merchantAccountId');
    ctx.body = await engine.configureAccount(mid, parse(accountSchema, ctx.request.body ?? {}));
  });

  router.post('/devices/:deviceId/offline-payments', async (ctx) => {
    const deviceId = id(ctx.params.deviceId);
    ctx.status = 201;
    ctx.body = await engine.offlinePayment(deviceId, parse(offlineSchema, ctx.request.body ?? {}));
  });

  // Opens a dispute on a captured bill found by the service's pspReference and notifies the service.
  router.post('/payments/:pspReference/disputes', async (ctx) => {
    const pspReference = parse(refSchema, ctx.params.pspReference, 'pspReference');
    ctx.status = 201;
    ctx.body = await engine.openDispute(pspReference, parse(openDisputeSchema, ctx.request.body ?? {}));
  });

  // Any bill, also after it left its device (outcome, card details, `voided`).
  router.get('/bills/:acquirerRef', (ctx) => {
    ctx.body = engine.billView(parse(refSchema, ctx.params.acquirerRef, 'acquirerRef'));
  });

  // The sandbox's own time per acquirer call (the benchmark's overhead figure); `since` in epoch ms.
  router.get('/acquirer-calls', (ctx) => {
    const since = Number(ctx.query.since ?? 0);
    ctx.body = { calls: calls ? calls.since(Number.isFinite(since) ? since : 0) : [] };
  });

  return router;
}
