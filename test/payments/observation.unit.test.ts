import { observedStatusEvent } from '../../core/payment/observation';
import type { BillStatus } from '../../core/acquirer';
import { initialState, transition } from '../../core/payment/transition';

/**
 * A read's projection written ahead of the workflow's decision (core/payment/observation.ts): what
 * it writes is what the workflow decides, and the workflow adopts it only when nothing changed the
 * payment while the read was out.
 */
const now = '2026-12-08T15:00:00.000Z';
const REF = 'sbx_1';
const awaiting = initialState({ status: 'AWAITING_TERMINAL', sequence: 1, amount: '10.00', acquirerRef: REF, twoStep: false });
const bill = (state: BillStatus['state'], extra: Partial<BillStatus> = {}): BillStatus => ({ acquirerRef: REF, state, ...extra });

describe('the projection written with a read', () => {
  it('is the status event the workflow decides for BILL_OBSERVED at the same time (a capture)', () => {
    const read = bill('CAPTURED', { cardBrand: 'VISA', last4: '4242' });
    const ahead = observedStatusEvent(awaiting, read, 'TERMINAL', now);
    const decided = transition(awaiting, { type: 'BILL_OBSERVED', bill: read, cause: 'READ', source: 'TERMINAL' }, { now }).effects.find(
      (e) => e.type === 'RECORD_STATUS_EVENT',
    );
    expect(ahead).toEqual(decided);
    expect(ahead?.event).toMatchObject({ sequence: 2, status: 'CAPTURED', previousStatus: 'AWAITING_TERMINAL', source: 'TERMINAL', occurredAt: now });
    expect(ahead?.fields).toMatchObject({ status: 'CAPTURED', cardBrand: 'VISA', last4: '4242', capturedAmount: '10.00', capturedAt: now });
  });

  it('is not written when the read changes no status (the bill still waiting)', () => {
    expect(observedStatusEvent(awaiting, bill('WAITING'), 'TERMINAL', now)).toBeNull();
  });

  it("is not written for a one-step terminal's authorisation: its completion is an acquirer call the workflow makes first", () => {
    expect(observedStatusEvent(awaiting, bill('AUTHORIZED'), 'TERMINAL', now)).toBeNull();
    // A two-step terminal's authorisation is a plain status event.
    expect(observedStatusEvent({ ...awaiting, twoStep: true }, bill('AUTHORIZED'), 'TERMINAL', now)?.event).toMatchObject({
      sequence: 2,
      status: 'AUTHORIZED',
    });
  });

  it('is not written for a payment already decided (no status event)', () => {
    expect(observedStatusEvent({ ...awaiting, status: 'CANCELLED', sequence: 2 }, bill('CAPTURED'), 'TERMINAL', now)).toBeNull();
  });
});
