import { tenderGiveBack } from '../../core/bill/givenBack';

/** What the dashboard's bill page says was done with each tender of a bill given back (docs/bills.md, docs/dashboard.md). */
describe('tenderGiveBack', () => {
  it('a cancelled payment says how it was given back by the status it was cancelled from', () => {
    expect(tenderGiveBack('CANCELLED', 'CAPTURED')).toEqual({ givenBack: 'VOIDED', giveBackStep: null });
    expect(tenderGiveBack('CANCELLED', 'AUTHORIZED')).toEqual({ givenBack: 'RELEASED', giveBackStep: null });
    expect(tenderGiveBack('CANCELLED', null)).toEqual({ givenBack: 'CANCELLED', giveBackStep: null });
  });

  it('refunded, cash at the till, and tenders that took nothing', () => {
    expect(tenderGiveBack('REFUNDED', null)).toEqual({ givenBack: 'REFUNDED', giveBackStep: null });
    expect(tenderGiveBack('RECEIVED', null)).toEqual({ givenBack: 'TO_RETURN_AT_TILL', giveBackStep: null });
    for (const s of ['REFUSED', 'EXPIRED', 'FAILED', 'ERROR'] as const)
      expect(tenderGiveBack(s, null)).toEqual({ givenBack: 'NOTHING_TAKEN', giveBackStep: null });
  });

  it('a tender still holding money names the step still to take', () => {
    expect(tenderGiveBack('AWAITING_TERMINAL', null)).toEqual({ givenBack: null, giveBackStep: 'CANCEL' });
    expect(tenderGiveBack('AUTHORIZED', null)).toEqual({ givenBack: null, giveBackStep: 'RELEASE' });
    expect(tenderGiveBack('CAPTURED', null)).toEqual({ givenBack: null, giveBackStep: 'VOID_OR_REFUND' });
    expect(tenderGiveBack('PARTIALLY_REFUNDED', null)).toEqual({ givenBack: null, giveBackStep: 'REFUND_REST' });
  });
});
