import { DomainError } from '../domain/errors';
import type { Payment } from '../generated/prisma/client';
import type { PaymentFacts, Refusal } from '../../core/payment/rules';
import type { PaymentStatus } from '../../core/payment/statuses';

/** A payment row as the operation rules read it (core/payment/rules.ts): exact decimal texts, ISO instants. */
export function factsOf(payment: Payment): PaymentFacts {
  return {
    status: payment.status as PaymentStatus,
    amount: payment.amount.toFixed(),
    tipAmount: payment.tipAmount.toFixed(),
    previousStatus: (payment.previousStatus as PaymentStatus | null) ?? null,
    capturedAt: payment.capturedAt?.toISOString() ?? null,
    capturedAmount: payment.capturedAmount?.toFixed() ?? null,
    refundedAmount: payment.refundedAmount.toFixed(),
    settledAt: payment.settledAt?.toISOString() ?? null,
  };
}

/** A rule's refusal (or a workflow's, which carries the same code) as the domain error HTTP and the CLI answer. */
export const refusalError = (refusal: Refusal): DomainError => new DomainError(refusal.code, refusal.message);
