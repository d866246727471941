import { placedStatusEvent } from '../../core/payment/placement';
import { initialState, transition } from '../../core/payment/transition';

/**
 * The first send's projection written ahead of the workflow's decision (core/payment/placement.ts):
 * what it writes is what the workflow decides, and the workflow adopts it only when nothing
 * changed the payment while the send was out.
 */
const now = '2026-11-28T15:00:00.000Z';
const created = initialState({ status: 'CREATED', amount: '10.00' });

describe('the projection written with the first send', () => {
  it('is the status event the workflow decides for BILL_PLACED at the same time', () => {
    const ahead = placedStatusEvent(created, 'sbx_1', now);
    const decided = transition(created, { type: 'BILL_PLACED', acquirerRef: 'sbx_1' }, { now }).effects.find((e) => e.type === 'RECORD_STATUS_EVENT');
    expect(ahead).toEqual(decided);
    expect(ahead?.event).toMatchObject({ sequence: 1, status: 'AWAITING_TERMINAL', previousStatus: 'CREATED', occurredAt: now });
    expect(ahead?.fields).toMatchObject({ status: 'AWAITING_TERMINAL', acquirerRef: 'sbx_1' });
  });

  it('is not written for a payment no longer CREATED (nothing to place)', () => {
    expect(placedStatusEvent({ ...created, status: 'CANCELLED', sequence: 1 }, 'sbx_1', now)).toBeNull();
  });
});
