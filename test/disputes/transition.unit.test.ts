import { acceptRefusal, evidenceRefusal, submitRefusal } from '../../core/dispute/rules';
import { disputeStatusRank, isDisputeOpen } from '../../core/dispute/statuses';
import { type DisputeEvent, type DisputeState, disputeTransition, initialDisputeState } from '../../core/dispute/transition';
import { refundRefusal, voidRefusal } from '../../core/payment/rules';

/** The dispute's pure transition (core/dispute/transition.ts) and answer rules (core/dispute/rules.ts), row by row. */
const at = '2026-11-26T10:00:00.000Z';
const state = (over: Partial<DisputeState> = {}): DisputeState => ({ ...initialDisputeState(), ...over });
const RECORD_AND_TELL = [{ type: 'RECORD_STATUS' }, { type: 'TELL_PAYMENT' }];

describe('disputeTransition', () => {
  it.each<[string, DisputeState, DisputeEvent, Partial<DisputeState>, unknown[]]>([
    [
      'submission: UNDER_REVIEW',
      state(),
      { type: 'SUBMITTED', at },
      { status: 'UNDER_REVIEW', submittedAt: at },
      [...RECORD_AND_TELL, { type: 'EMIT_EVENT', eventType: 'DISPUTE_UNDER_REVIEW' }],
    ],
    [
      'acceptance: ACCEPTED, closed',
      state(),
      { type: 'ACCEPTED', at },
      { status: 'ACCEPTED', closedAt: at },
      [...RECORD_AND_TELL, { type: 'EMIT_EVENT', eventType: 'DISPUTE_CLOSED' }],
    ],
    [
      'due date: EXPIRED, closed',
      state(),
      { type: 'DUE_PASSED', at },
      { status: 'EXPIRED', closedAt: at },
      [...RECORD_AND_TELL, { type: 'EMIT_EVENT', eventType: 'DISPUTE_CLOSED' }],
    ],
    [
      'decision WON',
      state({ status: 'UNDER_REVIEW', submittedAt: at }),
      { type: 'DECIDED', outcome: 'WON', at },
      { status: 'WON', closedAt: at },
      [...RECORD_AND_TELL, { type: 'EMIT_EVENT', eventType: 'DISPUTE_CLOSED' }],
    ],
    [
      'decision LOST',
      state({ status: 'UNDER_REVIEW', submittedAt: at }),
      { type: 'DECIDED', outcome: 'LOST', at },
      { status: 'LOST', closedAt: at },
      [...RECORD_AND_TELL, { type: 'EMIT_EVENT', eventType: 'DISPUTE_CLOSED' }],
    ],
    [
      'reminder: same status, one event',
      state(),
      { type: 'REMINDER_DUE' },
      { status: 'NEEDS_RESPONSE', reminded: true },
      [{ type: 'EMIT_EVENT', eventType: 'DISPUTE_RESPONSE_DUE' }],
    ],
  ])('%s', (_name, from, event, expected, effects) => {
    const result = disputeTransition(from, event);
    expect(result.state).toMatchObject(expected);
    expect(result.effects).toEqual(effects);
  });

  it.each<[string, DisputeState, DisputeEvent]>([
    ['a second reminder', state({ reminded: true }), { type: 'REMINDER_DUE' }],
    ['a reminder once submitted', state({ status: 'UNDER_REVIEW' }), { type: 'REMINDER_DUE' }],
    ['expiry after a submission', state({ status: 'UNDER_REVIEW' }), { type: 'DUE_PASSED', at }],
    ['expiry after acceptance', state({ status: 'ACCEPTED' }), { type: 'DUE_PASSED', at }],
    ['a decision before any submission', state(), { type: 'DECIDED', outcome: 'WON', at }],
    ['a second decision', state({ status: 'WON' }), { type: 'DECIDED', outcome: 'LOST', at }],
    ['a submission after expiry', state({ status: 'EXPIRED' }), { type: 'SUBMITTED', at }],
    ['acceptance once under review', state({ status: 'UNDER_REVIEW' }), { type: 'ACCEPTED', at }],
  ])('changes nothing: %s', (_name, from, event) => {
    expect(disputeTransition(from, event)).toEqual({ state: from, effects: [] });
  });
});

describe('answer rules', () => {
  const dueBy = '2026-11-26T12:00:00.000Z';
  const before = Date.parse(dueBy) - 1;
  const open = { status: 'NEEDS_RESPONSE' as const, hasStatement: true, dueBy };

  it('a statement, a submission and an acceptance while NEEDS_RESPONSE and before dueBy', () => {
    expect(evidenceRefusal(open, {}, before)).toBeUndefined();
    expect(submitRefusal(open, {}, before)).toBeUndefined();
    expect(acceptRefusal(open, {}, before)).toBeUndefined();
  });

  it('409 when not NEEDS_RESPONSE, at or after dueBy, while another answer is sent, or (submit) without a statement', () => {
    expect(submitRefusal({ ...open, status: 'UNDER_REVIEW' }, {}, before)).toEqual({ code: 'conflict', message: expect.stringContaining('UNDER_REVIEW') });
    expect(acceptRefusal({ ...open, status: 'EXPIRED' }, {}, before)?.code).toBe('conflict');
    expect(evidenceRefusal(open, {}, Date.parse(dueBy))?.message).toContain('due');
    expect(acceptRefusal(open, { answering: true }, before)?.message).toContain('already');
    expect(submitRefusal({ ...open, hasStatement: false }, {}, before)?.message).toContain('statement');
    expect(acceptRefusal({ ...open, hasStatement: false }, {}, before)).toBeUndefined();
  });
});

describe('statuses', () => {
  it('open while NEEDS_RESPONSE or UNDER_REVIEW; later words rank higher', () => {
    expect(['NEEDS_RESPONSE', 'UNDER_REVIEW', 'WON', 'LOST', 'ACCEPTED', 'EXPIRED', null].map(isDisputeOpen)).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(disputeStatusRank('NEEDS_RESPONSE')).toBeLessThan(disputeStatusRank('UNDER_REVIEW'));
    expect(disputeStatusRank('UNDER_REVIEW')).toBeLessThan(disputeStatusRank('WON'));
  });
});

describe('the payment rules while a dispute is open', () => {
  const captured = {
    status: 'CAPTURED' as const,
    amount: '40',
    previousStatus: 'AWAITING_TERMINAL' as const,
    capturedAt: new Date().toISOString(),
    capturedAmount: '40',
    refundedAmount: '0',
  };
  it('refund and void are 409 naming the dispute; allowed once it is closed', () => {
    expect(refundRefusal(captured, { disputeOpen: true }, '1')).toEqual({ code: 'conflict', message: expect.stringContaining('dispute') });
    expect(voidRefusal(captured, { disputeOpen: true }, { nowMs: Date.now(), voidWindowMs: 60_000 })?.message).toContain('dispute');
    expect(refundRefusal(captured, { disputeOpen: false }, '1')).toBeUndefined();
    expect(voidRefusal(captured, {}, { nowMs: Date.now(), voidWindowMs: 60_000 })).toBeUndefined();
  });
});
