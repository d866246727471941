import type { BillState, BillStatus } from '../../src/acquirer/port';
import { FINAL_STATUSES, type PaymentStatus } from '../../core/payment/statuses';
import { initialState, type PaymentEvent, type PaymentState, transition } from '../../core/payment/transition';

/** The pure state machine, row by row of docs/payments.md, "States and transitions", without Temporal. */
const now = '2026-11-22T10:00:00.000Z';
const ctx = { now };
const bill = (state: BillState, extra: Partial<BillStatus> = {}): BillStatus => ({ acquirerRef: 'sbx_1', state, ...extra });
const awaiting = (over: Partial<PaymentState> = {}): PaymentState =>
  initialState({ status: 'AWAITING_TERMINAL', sequence: 1, acquirerRef: 'sbx_1', paymentMethod: 'CARD', ...over });
const observed = (
  b: BillStatus,
  cause: 'READ' | 'CANCEL' | 'CLEAR' | 'EXPIRY' | 'PROBE' = 'READ',
  source: 'API' | 'TERMINAL' | 'SWEEP' | 'WORKFLOW' = 'API',
): PaymentEvent => ({
  type: 'BILL_OBSERVED',
  bill: b,
  cause,
  source,
});

function expectChange(state: PaymentState, event: PaymentEvent, status: PaymentStatus) {
  const result = transition(state, event, ctx);
  expect(result.state.status).toBe(status);
  expect(result.state.sequence).toBe(state.sequence + 1);
  const record = result.effects.find((e) => e.type === 'RECORD_STATUS_EVENT');
  expect(record).toMatchObject({ event: { sequence: state.sequence + 1, status, previousStatus: state.status, occurredAt: now } });
  expect(result.effects).toContainEqual({ type: 'UPSERT_STATUS_SEARCH_ATTRIBUTE', status });
  return result;
}

describe('payment transition function', () => {
  it('CREATED -> AWAITING_TERMINAL when the bill reaches the device (source API, actionReference the bill)', () => {
    const r = expectChange(initialState({ status: 'CREATED' }), { type: 'BILL_PLACED', acquirerRef: 'sbx_9' }, 'AWAITING_TERMINAL');
    expect(r.state.acquirerRef).toBe('sbx_9');
    expect(r.effects[0]).toMatchObject({ event: { actionReference: 'sbx_9', source: 'API' } });
    // AWAITING_TERMINAL has no webhook event: the status event announces nothing
    expect(r.effects).toContainEqual({ type: 'PUBLISH_PAYMENT_EVENT', sequence: 1, announces: false });
  });

  it('CREATED -> REFUSED when another bill is on the device, without a webhook event', () => {
    const r = expectChange(initialState({ status: 'CREATED' }), { type: 'PLACEMENT_REFUSED', refusalReason: 'busy', actionReference: 'CREATE-P1' }, 'REFUSED');
    expect(r.state.refusalReason).toBe('busy');
    expect(r.effects.some((e) => e.type === 'PUBLISH_PAYMENT_EVENT')).toBe(false);
  });

  it('CREATED -> FAILED when the acquirer rejects the bill or no bill of ours was ever placed', () => {
    expect(
      expectChange(initialState({ status: 'CREATED' }), { type: 'PLACEMENT_FAILED', reason: 'ACQUIRER_REJECTED', actionReference: 'X' }, 'FAILED').state.reason,
    ).toBe('ACQUIRER_REJECTED');
    expect(expectChange(initialState({ status: 'CREATED' }), { type: 'NOT_PLACED', actionReference: 'X' }, 'FAILED').state.reason).toBe('ACQUIRER_UNREACHABLE');
  });

  it('AWAITING_TERMINAL -> CAPTURED when the customer pays, with card details, capture time and the reported tender', () => {
    const r = expectChange(
      awaiting(),
      observed(bill('CAPTURED', { paymentMethod: 'QR_CODE', cardBrand: 'VISA', last4: '4242', decidedAt: '2026-11-22T09:59:00.000Z' })),
      'CAPTURED',
    );
    expect(r.state).toMatchObject({ paymentMethod: 'QR_CODE', cardBrand: 'VISA', last4: '4242', capturedAt: '2026-11-22T09:59:00.000Z' });
    expect(r.effects).toContainEqual({ type: 'PUBLISH_PAYMENT_EVENT', sequence: 2, announces: true });
  });

  it('AWAITING_TERMINAL -> AUTHORIZED on a two-step terminal, then CAPTURED when the acquirer completes it', () => {
    const r = expectChange(awaiting(), observed(bill('AUTHORIZED', { paymentMethod: 'CARD' })), 'AUTHORIZED');
    expectChange(r.state, observed(bill('CAPTURED')), 'CAPTURED');
    expect(transition(r.state, observed(bill('AUTHORIZED')), ctx).effects).toEqual([]);
  });

  describe('a one-step terminal (twoStep false) whose device authorised: the authorisation is completed at once', () => {
    const oneStep = (status: 'CREATED' | 'AWAITING_TERMINAL' = 'AWAITING_TERMINAL') => awaiting({ status, amount: '12.50', twoStep: false });
    const authorizedSeen: PaymentEvent = { type: 'BILL_OBSERVED', bill: bill('AUTHORIZED', { acquirerRef: 'sbx_7' }), cause: 'READ', source: 'TERMINAL' };

    it.each(['CREATED', 'AWAITING_TERMINAL'] as const)(
      'from %s: COMPLETE_AUTHORIZATION for the whole amount, and nothing else until it is answered',
      (status) => {
        const state = oneStep(status);
        const r = transition(state, authorizedSeen, ctx);
        expect(r.state).toBe(state);
        expect(r.effects).toEqual([{ type: 'COMPLETE_AUTHORIZATION', amount: '12.50', acquirerRef: 'sbx_7' }]);
      },
    );

    it('answered: the completed bill decides (CAPTURED, with the reference of the observation)', () => {
      const r = expectChange(
        oneStep(),
        { ...authorizedSeen, bill: bill('CAPTURED', { acquirerRef: 'sbx_7', capturedAmount: '12.50' }), completion: 'ANSWERED', actionReference: 'READ-1' },
        'CAPTURED',
      );
      expect(r.state.capturedAmount).toBe('12.50');
      expect(r.effects.some((e) => e.type === 'COMPLETE_AUTHORIZATION')).toBe(false);
      expect(r.effects[0]).toMatchObject({ event: { actionReference: 'READ-1', source: 'TERMINAL' } });
    });

    it('unanswered (or answered still AUTHORIZED): AUTHORIZED, with no second completion', () => {
      const r = expectChange(oneStep(), { ...authorizedSeen, completion: 'UNANSWERED' }, 'AUTHORIZED');
      expect(r.effects.some((e) => e.type === 'COMPLETE_AUTHORIZATION')).toBe(false);
      expectChange(oneStep(), { ...authorizedSeen, completion: 'ANSWERED' }, 'AUTHORIZED');
    });

    it('a two-step terminal, or a run from before the setting, is not completed by the workflow', () => {
      expectChange(awaiting({ twoStep: true }), authorizedSeen, 'AUTHORIZED');
      expectChange(awaiting(), authorizedSeen, 'AUTHORIZED');
    });

    it('once AUTHORIZED (the follow-up), a completion answered AUTHORIZED changes nothing and CAPTURED captures', () => {
      const authorized = transition(oneStep(), { ...authorizedSeen, completion: 'UNANSWERED' }, ctx).state;
      expect(transition(authorized, { ...authorizedSeen, cause: 'COMPLETE' }, ctx).effects).toEqual([]);
      expectChange(authorized, { ...authorizedSeen, bill: bill('CAPTURED', { acquirerRef: 'sbx_7' }), cause: 'COMPLETE' }, 'CAPTURED');
    });

    it('any other answer of the device goes as on a two-step terminal', () => {
      expectChange(oneStep(), observed(bill('CAPTURED')), 'CAPTURED');
      expectChange(oneStep(), observed(bill('DECLINED')), 'REFUSED');
    });
  });

  it('AWAITING_TERMINAL -> REFUSED when the customer declines', () => {
    expect(expectChange(awaiting(), observed(bill('DECLINED')), 'REFUSED').state.refusalReason).toBe('declined at the terminal');
    const words = '210 Not enough balance: NOT_ENOUGH_BALANCE (Refusal)';
    expect(expectChange(awaiting(), observed(bill('DECLINED', { errorMessage: words })), 'REFUSED').state.refusalReason).toBe(
      `declined at the terminal: ${words}`,
    );
  });

  it('AWAITING_TERMINAL -> CANCELLED with reason CANCELLED_AT_TERMINAL when cancelled on the device', () => {
    const r = expectChange(awaiting(), observed(bill('CANCELLED'), 'READ', 'TERMINAL'), 'CANCELLED');
    expect(r.state.reason).toBe('CANCELLED_AT_TERMINAL');
    expect(r.effects[0]).toMatchObject({ event: { source: 'TERMINAL' } });
  });

  it('AWAITING_TERMINAL -> CANCELLED when a POS cancel withdrew the bill', () => {
    const r = expectChange(awaiting(), { ...observed(bill('WITHDRAWN'), 'CANCEL'), actionReference: 'CANCEL-P1-1' } as PaymentEvent, 'CANCELLED');
    expect(r.state.reason).toBeNull();
    expect(r.effects[0]).toMatchObject({ event: { actionReference: 'CANCEL-P1-1' } });
  });

  it('AWAITING_TERMINAL -> CAPTURED when the customer completed before the cancel', () => {
    expectChange(awaiting(), observed(bill('CAPTURED'), 'CANCEL'), 'CAPTURED');
  });

  it('AWAITING_TERMINAL stays when the bill is still waiting', () => {
    expect(transition(awaiting(), observed(bill('WAITING')), ctx)).toEqual({ state: awaiting(), effects: [] });
  });

  it('AWAITING_TERMINAL -> EXPIRED after timeout plus grace (withdrawn by the expiry, or expired by the device)', () => {
    const r = expectChange(awaiting(), observed(bill('WITHDRAWN'), 'EXPIRY', 'WORKFLOW'), 'EXPIRED');
    expect(r.effects).toContainEqual({ type: 'PUBLISH_PAYMENT_EVENT', sequence: 2, announces: false }); // EXPIRED has no webhook event
    expectChange(awaiting(), observed(bill('EXPIRED'), 'READ', 'TERMINAL'), 'EXPIRED');
  });

  it('AWAITING_TERMINAL -> ERROR when the terminal reports a problem, ready for PAYMENT_ERROR', () => {
    const r = expectChange(awaiting(), observed(bill('ERROR')), 'ERROR');
    expect(r.state.reason).toBe('TERMINAL_ERROR');
    expect(r.effects).toContainEqual({ type: 'PUBLISH_PAYMENT_EVENT', sequence: 2, announces: true });
  });

  it('an operator clear cancels an open bill with reason CLEARED_BY_OPERATOR', () => {
    expect(expectChange(awaiting(), observed(bill('WITHDRAWN'), 'CLEAR'), 'CANCELLED').state.reason).toBe('CLEARED_BY_OPERATOR');
    expect(expectChange(awaiting(), { type: 'OPERATOR_CLEARED', actionReference: 'CLEAR-1' }, 'CANCELLED').state.reason).toBe('CLEARED_BY_OPERATOR');
  });

  it('CAPTURED -> CANCELLED by a confirmed void, previousStatus CAPTURED and actionReference VOID-...', () => {
    const captured = initialState({ status: 'CAPTURED', sequence: 2, acquirerRef: 'sbx_1', capturedAt: now });
    const r = expectChange(captured, { type: 'VOID_CONFIRMED', voidReference: 'VOID-P1-1', source: 'API' }, 'CANCELLED');
    expect(r.state.previousStatus).toBe('CAPTURED');
    expect(r.effects[0]).toMatchObject({ event: { actionReference: 'VOID-P1-1', previousStatus: 'CAPTURED' } });
    // a second confirmation changes nothing
    expect(transition(r.state, { type: 'VOID_CONFIRMED', voidReference: 'VOID-P1-2', source: 'API' }, ctx).effects).toEqual([]);
  });

  it.each(FINAL_STATUSES)('%s never changes on what the acquirer says later', (status) => {
    const final = initialState({ status, sequence: 3, acquirerRef: 'sbx_1' });
    for (const state of ['WAITING', 'AUTHORIZED', 'CAPTURED', 'DECLINED', 'CANCELLED', 'ERROR', 'EXPIRED', 'WITHDRAWN'] as BillState[]) {
      expect(transition(final, observed(bill(state)), ctx)).toEqual({ state: final, effects: [] });
    }
    expect(transition(final, { type: 'OPERATOR_CLEARED', actionReference: 'C' }, ctx).effects).toEqual([]);
    expect(transition(final, { type: 'BILL_PLACED', acquirerRef: 'x' }, ctx).effects).toEqual([]);
  });

  it('a bill the acquirer no longer knows ends FAILED with reason ACQUIRER_REJECTED', () => {
    const r = expectChange(awaiting(), { type: 'BILL_UNKNOWN', actionReference: 'EXPIRY-P1', source: 'WORKFLOW' }, 'FAILED');
    expect(r.state.reason).toBe('ACQUIRER_REJECTED');
  });

  it('a run starting from CREATED that finds its bill already decided applies that outcome', () => {
    expectChange(initialState({ status: 'CREATED' }), observed(bill('CAPTURED'), 'PROBE', 'SWEEP'), 'CAPTURED');
    expectChange(initialState({ status: 'CREATED' }), observed(bill('WITHDRAWN'), 'PROBE', 'SWEEP'), 'FAILED');
  });
});
