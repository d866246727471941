import { Router } from '@koa/router';
import type { Context, Next } from 'koa';
import { z } from 'zod';
import type { SandboxEngine } from './engine';
import { deviceIdSchema, merchantAccountIdSchema, modeSchema, parse, refSchema } from './http';

/**
 * The acquirer API the HttpAcquirer adapter calls, all under /acquirer/v1/devices/{deviceId}.
 * Send-bill answers its defined outcomes with a body carrying `outcome`: 201 ON_DEVICE,
 * 409 DEVICE_BUSY, 422 MODE_UNSUPPORTED. Send-bill and close take the merchant account
 * (`merchantAccountId`, the MID) whose books they are in; without it, SANDBOX's.
 */
export const ACQUIRER_PREFIX = '/acquirer/v1';

const sendBillSchema = z.strictObject({
  merchantAccountId: merchantAccountIdSchema.optional(),
  paymentId: z.string().min(1).max(200),
  pspReference: z.string().min(1).max(200),
  amount: z.string().regex(/^\d{1,15}(\.\d{1,4})?$/, 'must be a decimal string such as "12.50"'),
  currency: z.string().regex(/^[A-Z]{3}$/, 'must be a three-letter ISO 4217 code'),
  allowPartialAuthorisation: z.boolean('must be a boolean').optional(),
  // A tip the POS knows, charged on top; or the options the device offers the customer (docs/tips.md).
  tipAmount: z
    .string()
    .regex(/^\d{1,15}(\.\d{1,4})?$/, 'must be a decimal string such as "1.50"')
    .optional(),
  askTip: z
    .strictObject({
      percentages: z.array(z.number().int().min(1).max(100)).min(1).max(3),
      allowCustom: z.boolean('must be a boolean'),
    })
    .optional(),
  reference: z.string().max(200).nullable().optional(),
  modes: z.array(modeSchema).min(1, 'must name at least one mode'),
  timeoutSeconds: z.number().positive('must be greater than zero').max(86_400, 'must be at most 86400'),
  receipt: z
    .strictObject({
      cashierId: z.string().min(1).max(100).optional(),
      customerMobile: z.string().min(1).max(40).optional(),
      customerEmail: z.string().min(1).max(254).optional(),
    })
    .optional(),
});
const voidSchema = z.strictObject({ voidReference: refSchema });
const closeSchema = z.strictObject({
  merchantAccountId: merchantAccountIdSchema.optional(),
  batchReference: z.string().min(1).max(200),
  until: z.iso.datetime({ offset: true }),
});
const decimalText = z.string().regex(/^\d{1,15}(\.\d{1,4})?$/, 'must be a decimal string such as "12.50"');
const completeSchema = z.strictObject({ amount: decimalText, captureReference: z.string().min(1).max(200) });
const refundSchema = z.strictObject({
  refundReference: z.string().min(1).max(200),
  amount: decimalText,
  currency: z.string().regex(/^[A-Z]{3}$/, 'must be a three-letter ISO 4217 code'),
});

const evidenceSchema = z.strictObject({ text: z.string().min(1).max(20_000), transaction: z.record(z.string(), z.unknown()) });

/**
 * The network between service and device: `reachable: false` holds the request and then drops the
 * connection without an answer, as a timeout would; `latencyMs` delays the answer.
 */
export function networkConditions(engine: SandboxEngine, opts: { holdMs: number; held: Set<NodeJS.Timeout> }) {
  const pattern = new RegExp(`^${ACQUIRER_PREFIX}/devices/([^/]+)`);
  return async (ctx: Context, next: Next) => {
    const match = pattern.exec(ctx.path);
    if (!match) return next();
    let deviceId: string;
    try {
      deviceId = decodeURIComponent(match[1]);
    } catch {
      return next(); // the route answers 400 for the id
    }
    const device = engine.store.deviceOrDefault(deviceId);
    if (!device.reachable) {
      ctx.respond = false;
      const timer = setTimeout(() => {
        opts.held.delete(timer);
        ctx.req.socket.destroy();
      }, opts.holdMs);
      opts.held.add(timer);
      return;
    }
    if (device.latencyMs > 0) await new Promise((r) => setTimeout(r, device.latencyMs));
    return next();
  };
}

export function acquirerRoutes(engine: SandboxEngine): Router {
  const router = new Router({ prefix: `${ACQUIRER_PREFIX}/devices/:deviceId` });
  const id = (raw: string | undefined) => parse(deviceIdSchema, raw, 'deviceId');
  const ref = (raw: string | undefined, what: string) => parse(refSchema, raw, what);

  router.get('/', (ctx) => {
    ctx.body = engine.capabilities(id(ctx.params.deviceId));
  });

  router.post('/bills', async (ctx) => {
    const deviceId = id(ctx.params.deviceId);
    const result = await engine.sendBill({ deviceId, ...parse(sendBillSchema, ctx.request.body ?? {}) });
    ctx.status = result.outcome === 'ON_DEVICE' ? 201 : result.outcome === 'DEVICE_BUSY' ? 409 : 422;
    ctx.body = result;
  });

  router.get('/bills/:acquirerRef', (ctx) => {
    ctx.body = engine.billStatus(id(ctx.params.deviceId), ref(ctx.params.acquirerRef, 'acquirerRef'));
  });

  router.post('/bills/:acquirerRef/withdraw', async (ctx) => {
    ctx.body = await engine.withdrawBill(id(ctx.params.deviceId), ref(ctx.params.acquirerRef, 'acquirerRef'));
  });

  router.post('/bills/:acquirerRef/voids', async (ctx) => {
    const deviceId = id(ctx.params.deviceId);
    const { voidReference } = parse(voidSchema, ctx.request.body ?? {});
    ctx.body = await engine.submitVoid(deviceId, ref(ctx.params.acquirerRef, 'acquirerRef'), voidReference);
  });

  // Closes the batch of the MID's books on the device; the same MID and batchReference answer the same report.
  router.post('/settlements', async (ctx) => {
    const deviceId = id(ctx.params.deviceId);
    const { batchReference, until, merchantAccountId } = parse(closeSchema, ctx.request.body ?? {});
    ctx.body = await engine.closeBatch(deviceId, batchReference, until, merchantAccountId);
  });

  router.post('/bills/:acquirerRef/complete', async (ctx) => {
    const deviceId = id(ctx.params.deviceId);
    ctx.body = await engine.completeAuthorization(deviceId, ref(ctx.params.acquirerRef, 'acquirerRef'), parse(completeSchema, ctx.request.body ?? {}));
  });

  router.post('/bills/:acquirerRef/release', async (ctx) => {
    ctx.body = await engine.releaseAuthorization(id(ctx.params.deviceId), ref(ctx.params.acquirerRef, 'acquirerRef'));
  });

  router.post('/bills/:acquirerRef/refunds', async (ctx) => {
    const deviceId = id(ctx.params.deviceId);
    ctx.body = await engine.refund(deviceId, ref(ctx.params.acquirerRef, 'acquirerRef'), parse(refundSchema, ctx.request.body ?? {}));
  });

  router.get('/refunds/:refundReference', (ctx) => {
    ctx.body = engine.refundStatus(id(ctx.params.deviceId), ref(ctx.params.refundReference, 'refundReference'));
  });

  // Payouts of the device's reports (docs/payouts-and-fees.md, "The sandbox's terms per MID").
  router.get('/payouts/:payoutId', (ctx) => {
    ctx.body = engine.payoutStatus(id(ctx.params.deviceId), ref(ctx.params.payoutId, 'payoutId'));
  });

  // Disputes of the device's bills (docs/disputes.md, "The sandbox"): read, answer with evidence, or accept.
  router.get('/disputes/:disputeId', (ctx) => {
    ctx.body = engine.dispute(id(ctx.params.deviceId), ref(ctx.params.disputeId, 'disputeId'));
  });

  router.post('/disputes/:disputeId/evidence', async (ctx) => {
    const deviceId = id(ctx.params.deviceId);
    ctx.body = await engine.submitDisputeEvidence(deviceId, ref(ctx.params.disputeId, 'disputeId'), parse(evidenceSchema, ctx.request.body ?? {}));
  });

  router.post('/disputes/:disputeId/accept', async (ctx) => {
    ctx.body = await engine.acceptDispute(id(ctx.params.deviceId), ref(ctx.params.disputeId, 'disputeId'));
  });

  router.get('/voids/:voidReference', (ctx) => {
    ctx.body = engine.voidStatus(id(ctx.params.deviceId), ref(ctx.params.voidReference, 'voidReference'));
  });

  return router;
}
