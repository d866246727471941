import { aheadStands } from '../../core/payment/writtenAhead';

/**
 * A projection written ahead by the send or the read (core/payment/writtenAhead.ts): the workflow
 * adopts it only when nothing changed the payment while the call was out.
 */
const now = '2026-12-08T15:00:00.000Z';

describe("aheadStands: the send's projection", () => {
  const atSend = { status: 'CREATED' as const, sequence: 0 };
  const projected = { sequence: 1, occurredAt: now };

  it('is adopted when nothing changed the payment while the send was out', () => {
    expect(aheadStands(atSend, atSend, projected)).toBe(true);
  });

  it("not when an operator's clear (or any status event) took the sequence meanwhile: its own projection replaces it", () => {
    expect(aheadStands(atSend, { status: 'CANCELLED', sequence: 1 }, projected)).toBe(false);
  });

  it('not when nothing was written ahead (refused, not placed, or the write failed)', () => {
    expect(aheadStands(atSend, atSend, null)).toBe(false);
  });

  it('not when the write is not the next sequence', () => {
    expect(aheadStands(atSend, atSend, { sequence: 2, occurredAt: now })).toBe(false);
  });
});

describe("aheadStands: a read's projection", () => {
  const atRead = { status: 'AWAITING_TERMINAL' as const, sequence: 1 };
  const projected = { sequence: 2, occurredAt: now };

  it('is adopted when nothing changed the payment while the read was out', () => {
    expect(aheadStands(atRead, atRead, projected)).toBe(true);
  });

  it('not when a decision took the sequence meanwhile: its own projection replaces it', () => {
    expect(aheadStands(atRead, { status: 'CANCELLED', sequence: 2 }, projected)).toBe(false);
    expect(aheadStands({ status: 'AUTHORIZED', sequence: 2 }, { status: 'CAPTURED', sequence: 3 }, { sequence: 3, occurredAt: now })).toBe(false);
  });

  it('not when nothing was written ahead (no status event, or the write failed)', () => {
    expect(aheadStands(atRead, atRead, null)).toBe(false);
  });

  it('not when the write is not the next sequence', () => {
    expect(aheadStands(atRead, atRead, { sequence: 3, occurredAt: now })).toBe(false);
  });
});
