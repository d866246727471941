import { ApplicationFailure } from '@temporalio/common';
import type { ApiKeyPrincipal } from '../auth/principal';
import type { KeyMode } from '../auth/apiKeys';
import { DomainError } from '../domain/errors';
import { cancelPayment, type OperationDeps, voidPayment } from '../payments/operations';
import { createRefund } from '../refunds/refunds';
import { BILL_STEP_REFUSED } from '../../core/bill/messages';
import type { GiveBackStep } from '../../core/bill/statuses';

/** Refunds the service makes for a bill given back name it as their creator (docs/bills.md). */
export const BILL_REFUND_CREATOR = 'system:bill';

/**
 * One give-back step of a tender, through the payment's own operations (docs/bills.md, "Giving a
 * bill back"), so every payment rule holds and the payment's workflow decides. A step the payment
 * refuses (it moved on meanwhile) fails as BILL_STEP_REFUSED: the bill reads the payment again and
 * takes the next step. An acquirer that cannot be reached fails retryably: the step is tried again.
 * Idempotent: a second cancel or void of a decided payment is refused, a refund carries the bill's
 * idempotency key.
 */
export async function giveBackTender(deps: OperationDeps, billId: string, paymentId: string, step: GiveBackStep): Promise<void> {
  const payment = await deps.db.payment.findFirst({ where: { id: paymentId, billId }, include: { merchant: { select: { externalId: true } } } });
  // A hold whose payment was never created (its creation failed before the row): nothing to give back; the bill reads no row and frees it.
  if (!payment) throw ApplicationFailure.nonRetryable(`no payment ${paymentId} was created for bill ${billId}`, BILL_STEP_REFUSED);
  const caller: ApiKeyPrincipal = {
    kind: 'apiKey',
    merchantId: payment.merchantId,
    merchantExternalId: payment.merchant.externalId,
    apiKeyId: BILL_REFUND_CREATOR,
    mode: payment.mode as KeyMode,
    scopes: [],
  };
  const refundTheRest = async () => {
    // One key per attempt that can still succeed: a retried step finds its refund, a failed refund lets the next one be made.
    const failed = await deps.db.refund.count({ where: { paymentId, createdBy: BILL_REFUND_CREATOR, status: 'FAILED' } });
    const creator = { merchantId: payment.merchantId, merchantExternalId: payment.merchant.externalId, username: BILL_REFUND_CREATOR, userId: null };
    await createRefund(deps, creator, paymentId, { reason: `bill ${billId} given back` }, `bill-${billId}-${failed}`);
  };
  try {
    if (step === 'CANCEL' || step === 'RELEASE') await cancelPayment(deps, caller, paymentId);
    else if (step === 'REFUND_REST') await refundTheRest();
    else if (step === 'VOID_OR_REFUND') {
      try {
        await voidPayment(deps, caller, paymentId);
      } catch (err) {
        // Past its void window (or refused by the acquirer): a refund in full gives it back.
        if (!(err instanceof DomainError) || err.kind !== 'conflict') throw err;
        await refundTheRest();
      }
    }
  } catch (err) {
    if (err instanceof DomainError && (err.kind === 'conflict' || err.kind === 'invalid')) {
      throw ApplicationFailure.nonRetryable(err.message, BILL_STEP_REFUSED);
    }
    throw err;
  }
}
