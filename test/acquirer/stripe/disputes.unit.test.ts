import type Stripe from 'stripe';
import { DISPUTE_REASONS } from '../../../core/dispute/statuses';
import {
  STRIPE_DISPUTE_REASON,
  STRIPE_DISPUTE_STATUS,
  acquirerDisputeOf,
  disputeReasonOf,
  disputeStatusOf,
  evidenceParams,
} from '../../../src/acquirer/stripe/disputes';
import { STRIPE_DISPUTE_EVENTS, disputeNudgeOf } from '../../../src/acquirer/stripe/webhooks';
import examples from './stripe-examples.json';

/**
 * Stripe's disputes as ours (docs/disputes.md, "Stripe"): every status and reason Stripe's OpenAPI
 * description lists (stripe-examples.json, copied from stripe-mock by
 * scripts/extract-stripe-fixtures.mjs) has a row; one without fails here.
 */
const dispute = examples.objects.dispute as unknown as Stripe.Dispute;
const withStatus = (status: string, submissions = 0) =>
  ({ ...dispute, status, evidence_details: { ...dispute.evidence_details, submission_count: submissions } }) as Stripe.Dispute;

describe("Stripe's dispute statuses", () => {
  it.each(examples.enums.dispute_status)('%s has a row of its own', (status) => {
    expect(Object.keys(STRIPE_DISPUTE_STATUS)).toContain(status);
  });

  it('maps each status, a lost dispute with nothing submitted being an acceptance (a close)', () => {
    const seen = Object.fromEntries(examples.enums.dispute_status.map((s) => [s, disputeStatusOf(withStatus(s, 1))]));
    expect(seen).toEqual({
      warning_needs_response: 'NEEDS_RESPONSE',
      needs_response: 'NEEDS_RESPONSE',
      warning_under_review: 'UNDER_REVIEW',
      under_review: 'UNDER_REVIEW',
      won: 'WON',
      warning_closed: 'WON',
      prevented: 'WON',
      lost: 'LOST',
    });
    expect(disputeStatusOf(withStatus('lost', 0))).toBe('ACCEPTED');
  });

  it('a status Stripe adds later reads as under review: not ours to answer, not decided', () => {
    expect(disputeStatusOf(withStatus('something_new'))).toBe('UNDER_REVIEW');
  });
});

describe("Stripe's dispute reasons", () => {
  it('the list read from the description is whole', () => {
    expect(examples.enums.dispute_reason).toHaveLength(15);
  });

  it.each(examples.enums.dispute_reason)('%s has a row of its own', (reason) => {
    expect(Object.keys(STRIPE_DISPUTE_REASON)).toContain(reason);
    expect(DISPUTE_REASONS).toContain(disputeReasonOf(reason));
  });

  it('maps the reasons a card-present dispute has to ours', () => {
    expect(['fraudulent', 'unrecognized', 'product_not_received', 'duplicate', 'credit_not_processed', 'general'].map(disputeReasonOf)).toEqual([
      'FRAUD',
      'FRAUD',
      'NOT_RECEIVED',
      'DUPLICATE',
      'CREDIT_NOT_PROCESSED',
      'GENERAL',
    ]);
    expect(disputeReasonOf('a_reason_stripe_adds_later')).toBe('GENERAL');
  });
});

describe("a Stripe dispute as the port's", () => {
  it("Stripe's example: amount in decimals, due date from evidence_details.due_by, the PaymentIntent as the bill", () => {
    expect(acquirerDisputeOf({ ...dispute, payment_intent: 'pi_1', amount: 1234, currency: 'eur' })).toEqual({
      disputeId: dispute.id,
      acquirerRef: 'pi_1',
      status: 'NEEDS_RESPONSE',
      reason: 'GENERAL',
      amount: '12.34',
      currency: 'EUR',
      openedAt: new Date(dispute.created * 1000).toISOString(),
      dueBy: new Date(dispute.evidence_details.due_by! * 1000).toISOString(),
    });
  });

  it('no due date (nothing due any more): its opening', () => {
    const read = acquirerDisputeOf({ ...dispute, status: 'won', evidence_details: { ...dispute.evidence_details, due_by: null } });
    expect(read.dueBy).toBe(read.openedAt);
  });

  it('the evidence: the statement and the assembled transaction, submitted at once', () => {
    const params = evidenceParams({
      text: 'The customer signed <b>the receipt</b>',
      transaction: { pspReference: 'PSP-1', reference: 'ORDER-1', storeName: 'Main St', capturedAt: '2026-01-02T03:04:05.000Z' },
    });
    expect(params).toMatchObject({
      submit: true,
      evidence: {
        uncategorized_text: 'The customer signed <b>the receipt</b>',
        product_description: 'In-store card payment at Main St, ORDER-1',
        service_date: '2026-01-02',
      },
    });
    expect(JSON.parse(params.evidence!.access_activity_log!)).toMatchObject({ pspReference: 'PSP-1' });
  });
});

describe('charge.dispute.* events as nudges', () => {
  it.each(STRIPE_DISPUTE_EVENTS)('%s names the dispute and its PaymentIntent', (type) => {
    expect(disputeNudgeOf({ type, data: { object: { ...dispute, payment_intent: 'pi_9' } } } as never)).toEqual({ acquirerRef: 'pi_9', disputeId: dispute.id });
  });

  it('no PaymentIntent, another object, or another event: nothing', () => {
    expect(disputeNudgeOf({ type: 'charge.dispute.created', data: { object: dispute } } as never)).toBeNull();
    expect(disputeNudgeOf({ type: 'charge.dispute.created', data: { object: { ...examples.objects.charge } } } as never)).toBeNull();
    expect(disputeNudgeOf({ type: 'charge.succeeded', data: { object: { ...dispute, payment_intent: 'pi_9' } } } as never)).toBeNull();
  });
});
