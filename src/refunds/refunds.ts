import crypto from 'node:crypto';
import type { UserPrincipal } from '../auth/principal';
import type { Db } from '../db/client';
import { conflict, DomainError, notFound } from '../domain/errors';
import type { Payment, Refund } from '../generated/prisma/client';
import { askWorkflow, checkAmount, type OperationDeps } from '../payments/operations';
import type { RefundRequestInput } from '../../core/payment/messages';
import { refundRefusal } from '../../core/payment/rules';
import { isDisputeOpen } from '../../core/dispute/statuses';
import { factsOf, refusalError } from '../payments/facts';
import { pendingRefundsOf } from './pending';
import { chargedBackOf } from '../disputes/chargebacks';
import type { CreateRefundBody } from './record';

/**
 * Refunds by signed-in dashboard users (docs/refunds.md). The API checks what it can from the rows
 * (400, 404, 409, the Idempotency-Key) and hands the refund to the payment's workflow, the one
 * writer of the payment: it reserves the amount (so concurrent refunds from any number of API
 * processes never add up to more than capturedAmount), writes the refund row, submits it to the
 * acquirer with a stable reference and follows it until the acquirer decides. See docs/refunds.md.
 */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;

/** A payment of the user's business, live or test alike. */
export async function findMerchantPayment(db: Db, merchantId: string, paymentId: string): Promise<Payment> {
  const payment = await db.payment.findFirst({ where: { id: paymentId, merchantId } });
  if (!payment) throw notFound('payment');
  return payment;
}

export async function listRefunds(db: Db, payment: Payment): Promise<Refund[]> {
  return db.refund.findMany({ where: { paymentId: payment.id }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
}

export interface CreateRefundResult {
  refund: Refund;
  /** The same Idempotency-Key was seen before: this is the refund it created. */
  replayed: boolean;
}

/** Who asks for a refund: a signed-in user, or the service itself for a bill given back (`system:bill`, no user id). */
export type RefundCreator = Pick<UserPrincipal, 'merchantId' | 'merchantExternalId' | 'username'> & { userId: number | null };

export async function createRefund(
  deps: OperationDeps,
  user: RefundCreator,
  paymentId: string,
  body: CreateRefundBody,
  idempotencyKey: string | null,
): Promise<CreateRefundResult> {
  const { db } = deps;
  const payment = await findMerchantPayment(db, user.merchantId, paymentId);
  const amount = body?.amount === undefined ? undefined : checkAmount(body.amount, payment.currency);
  const reason = body?.reason ?? null;
  const requestFingerprint = crypto
    .createHash('sha256')
    .update(JSON.stringify({ amount: amount ?? null, reason }))
    .digest('hex');

  // The refund an earlier request with this Idempotency-Key made (within the window), if any.
  const madeByKey = async (): Promise<CreateRefundResult | undefined> => {
    if (idempotencyKey === null) return undefined;
    const earlier = await db.refund.findFirst({
      where: { paymentId: payment.id, idempotencyKey, createdAt: { gte: new Date(Date.now() - IDEMPOTENCY_WINDOW_MS) } },
      orderBy: { createdAt: 'desc' },
    });
    if (!earlier) return undefined;
    if (earlier.requestFingerprint !== requestFingerprint) throw conflict('Idempotency-Key was already used for another refund request of this payment');
    return { refund: earlier, replayed: true };
  };
  const earlier = await madeByKey();
  if (earlier) return earlier;
  try {
    return await decideRefund(deps, user, payment, amount, reason, idempotencyKey, requestFingerprint);
  } catch (err) {
    // A refusal may come from the refund an earlier attempt with this key made after the look-up
    // above: the client gave up on it (no answer: aborted, or its API process was killed) and sent
    // it again while it was under way, and it was written meanwhile, counted against the payment
    // (here, or by a new run that never knew the key). That refund is the answer, never a refusal.
    if (err instanceof DomainError && err.kind === 'conflict') {
      const made = await madeByKey();
      if (made) return made;
    }
    throw err;
  }
}

/** The checks from the rows, then the refund handed to the payment's workflow. */
async function decideRefund(
  deps: OperationDeps,
  user: RefundCreator,
  payment: Payment,
  amount: string | undefined,
  reason: string | null,
  idempotencyKey: string | null,
  requestFingerprint: string,
): Promise<CreateRefundResult> {
  const { db } = deps;
  // A first look from the rows; the workflow decides (it sees the refunds and voids still in flight).
  const pending = await db.refund.aggregate({ where: { paymentId: payment.id, status: 'PENDING' }, _sum: { amount: true } });
  const refusal = refundRefusal(
    factsOf(payment),
    {
      pendingRefundTotal: pending._sum.amount?.toFixed() ?? '0',
      disputeOpen: isDisputeOpen(payment.disputeStatus),
      chargedBack: await chargedBackOf(db, payment.id),
    },
    amount,
  );
  if (refusal) throw refusalError(refusal);

  const request: RefundRequestInput = {
    refundId: crypto.randomUUID(),
    ...(amount !== undefined ? { amount } : {}),
    reason,
    createdBy: user.username,
    createdByUserId: user.userId,
    idempotencyKey,
    requestFingerprint,
  };
  // A run started from the row (the last one ended) also takes the refunds still PENDING there.
  const pendingRows = await pendingRefundsOf(db, payment.id);
  // The row (written by the workflow under the id chosen here) proves the refund was made: an
  // answer lost on its way back (the run ended as it answered, or the call failed after the
  // workflow took it) is answered with the refund, never with a refusal or a 503.
  const made = () => db.refund.findUnique({ where: { id: request.refundId } });
  // A run that was just ending answers "closed": the next attempt starts a new run from the row.
  for (let attempt = 1; ; attempt++) {
    const answer = await askWorkflow(deps, payment, user, 'refund', [request], pendingRows).catch((err: unknown) => ({ kind: 'failed' as const, err }));
    if (answer.kind !== 'outcome') {
      const row = await made();
      if (row) return { refund: row, replayed: false };
    }
    if (answer.kind === 'failed') throw answer.err;
    if (answer.kind === 'closed') {
      if (attempt >= 3) {
        const now = factsOf(await db.payment.findUniqueOrThrow({ where: { id: payment.id } }));
        throw refusalError(
          refundRefusal(now, { chargedBack: await chargedBackOf(db, payment.id) }, amount) ?? {
            code: 'conflict',
            message: `refund not permitted: the payment is ${now.status}`,
          },
        );
      }
      continue;
    }
    if (answer.kind === 'rejected') throw refusalError(answer);
    if (answer.outcome.notice === 'IDEMPOTENCY_MISMATCH') throw conflict('Idempotency-Key was already used for another refund request of this payment');
    const id = answer.outcome.refund?.id ?? request.refundId;
    return { refund: await db.refund.findUniqueOrThrow({ where: { id } }), replayed: id !== request.refundId };
  }
}
