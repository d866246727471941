import type { StripeAcquirer } from '../../../src/acquirer/stripe/adapter';
import { type RecordedStripeRequest, type StripeRecorder, withStripeAdapter } from '../../support/stripeMock';

/**
 * The Stripe adapter's disputes against stripe-mock, which refuses (400) any request Stripe's
 * OpenAPI description does not allow. It keeps no state: each answer is Stripe's example dispute,
 * shown in the status a step needs through the recorder, so these tests check that every request
 * is one Stripe accepts and that its answers are read. The mapping: disputes.unit.test.ts.
 */
const stripeMock = withStripeAdapter();
let recorder: StripeRecorder;
let stripe: StripeAcquirer;
const READER = 'tmr_FDOt2wlRZEdpd7';
const DISPUTE = 'dp_1Pgc71B7WZ01zgkWMevJiAUx';

beforeAll(() => void ({ recorder, stripe } = stripeMock));

const { asked } = stripeMock;
/** Reads answer the dispute in `status` (with `submissions` evidence submissions); writes answer `after`. */
const disputeIn =
  (status: string, after: string, submissions = 0) =>
  (req: RecordedStripeRequest, body: any) => ({
    ...body,
    id: DISPUTE,
    payment_intent: 'pi_3MtwBwLkdIwHu7ix28a3tqPa',
    status: req.method === 'GET' ? status : after,
    evidence_details: { ...body.evidence_details, submission_count: req.method === 'GET' ? submissions : after === 'lost' ? 0 : 1 },
  });

describe("the Stripe adapter's disputes against stripe-mock", () => {
  it("reads a dispute: Stripe's answer as ours", async () => {
    recorder.answer = disputeIn('needs_response', 'needs_response');
    expect(await stripe.disputes.getDispute(READER, DISPUTE)).toMatchObject({
      disputeId: DISPUTE,
      acquirerRef: 'pi_3MtwBwLkdIwHu7ix28a3tqPa',
      status: 'NEEDS_RESPONSE',
      amount: expect.stringMatching(/^\d+\.\d{2}$/),
      dueBy: expect.stringMatching(/^\d{4}-/),
    });
    expect(asked()).toEqual([`GET /v1/disputes/${DISPUTE}`]);
  });

  it('submits the evidence with submit=true, accepted by stripe-mock, and answers under review', async () => {
    recorder.answer = disputeIn('needs_response', 'under_review');
    const read = await stripe.disputes.submitDisputeEvidence(READER, DISPUTE, {
      text: 'Signed receipt attached & the card was present',
      transaction: { pspReference: 'PSP-1', reference: 'ORDER-1', storeName: 'Main St', capturedAt: '2026-01-02T03:04:05.000Z' },
    });
    expect(read.status).toBe('UNDER_REVIEW');
    expect(asked()).toEqual([`GET /v1/disputes/${DISPUTE}`, `POST /v1/disputes/${DISPUTE}`]);
    expect(recorder.requests[1]!.body).toMatchObject({
      submit: 'true',
      'evidence[uncategorized_text]': 'Signed receipt attached & the card was present',
      'evidence[product_description]': 'In-store card payment at Main St, ORDER-1',
      'evidence[service_date]': '2026-01-02',
    });
  });

  it('accepting closes the dispute at Stripe (lost, nothing submitted: ACCEPTED)', async () => {
    recorder.answer = disputeIn('needs_response', 'lost');
    expect((await stripe.disputes.acceptDispute(READER, DISPUTE)).status).toBe('ACCEPTED');
    expect(asked()).toEqual([`GET /v1/disputes/${DISPUTE}`, `POST /v1/disputes/${DISPUTE}/close`]);
  });

  it('a repeat after the answer went through sends nothing and answers the dispute as it stands', async () => {
    recorder.answer = disputeIn('under_review', 'under_review', 1);
    expect((await stripe.disputes.submitDisputeEvidence(READER, DISPUTE, { text: 'again', transaction: {} })).status).toBe('UNDER_REVIEW');
    expect((await stripe.disputes.acceptDispute(READER, DISPUTE)).status).toBe('UNDER_REVIEW');
    expect(asked()).toEqual([`GET /v1/disputes/${DISPUTE}`, `GET /v1/disputes/${DISPUTE}`]);
  });

  it('an unknown dispute is refused, not retried', async () => {
    // stripe-mock answers any id; a malformed one (Stripe's ids have no spaces) it refuses.
    await expect(stripe.disputes.getDispute(READER, 'no such dispute')).rejects.toMatchObject({ name: 'AcquirerRejectedError' });
  });
});
