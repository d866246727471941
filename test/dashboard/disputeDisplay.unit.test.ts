import { duration, dueView } from '../../dashboard/src/disputes/due';
import { evidenceFacts } from '../../dashboard/src/disputes/evidence';
import { formatMoney } from '../../dashboard/src/format/money';
import { hiddenCharacters, visibleText } from '../../dashboard/src/disputes/visibleText';

/** What the dashboard's dispute pages show (docs/dashboard.md, Disputes): the due date's urgency, text as text. */
const NOW = Date.parse('2026-11-26T12:00:00Z');
const at = (hours: number) => new Date(NOW + hours * 3_600_000).toISOString();

describe('the due date', () => {
  it('stands out within the reminder window, and otherwise once past due or expired', () => {
    expect(dueView({ status: 'NEEDS_RESPONSE', dueBy: at(72) }, NOW, 48)).toEqual({ kind: 'open', text: 'due in 3 d 0 h' });
    expect(dueView({ status: 'NEEDS_RESPONSE', dueBy: at(48) }, NOW, 48)).toEqual({ kind: 'soon', text: 'due in 2 d 0 h' });
    expect(dueView({ status: 'NEEDS_RESPONSE', dueBy: at(5) }, NOW, 48)).toEqual({ kind: 'soon', text: 'due in 5 h 0 min' });
    expect(dueView({ status: 'NEEDS_RESPONSE', dueBy: at(5) }, NOW, 2.5)).toEqual({ kind: 'open', text: 'due in 5 h 0 min' }); // DISPUTE_REMINDER_HOURS decides
    expect(dueView({ status: 'NEEDS_RESPONSE', dueBy: at(-0.05) }, NOW, 48)).toEqual({ kind: 'overdue', text: 'overdue by 3 min' });
    expect(dueView({ status: 'EXPIRED', dueBy: at(-1) }, NOW, 48)).toEqual({ kind: 'expired', text: 'expired unanswered' });
    for (const status of ['UNDER_REVIEW', 'WON', 'LOST', 'ACCEPTED'])
      expect(dueView({ status, dueBy: at(1) }, NOW, 48)).toEqual({ kind: 'answered', text: '' });
  });

  it('counts down rounding down, never overstating the time left', () => {
    expect(duration(4 * 3_600_000 + 59 * 60_000 + 59_000)).toBe('4 h 59 min');
    expect(duration(59_000)).toBe('1 min');
    expect(duration(45 * 60_000)).toBe('45 min');
    expect(duration(6 * 86_400_000 + 23.9 * 3_600_000)).toBe('6 d 23 h');
  });
});

describe('typed text', () => {
  it('keeps markup as it is and makes control, bidi and zero-width characters visible', () => {
    const hostile = '<script>alert(1)</script><img src=x onerror=alert(2)>\u0007bell\u202Eevil\u200Bgap\u0000end\nline2\ttab';
    expect(visibleText(hostile)).toBe('<script>alert(1)</script><img src=x onerror=alert(2)>⟨U+0007⟩bell⟨U+202E⟩evil⟨U+200B⟩gap⟨U+0000⟩end\nline2\ttab');
    expect(hiddenCharacters(hostile)).toEqual(['⟨U+0007⟩', '⟨U+202E⟩', '⟨U+200B⟩', '⟨U+0000⟩']);
    expect(visibleText('Zoë 😀 – fine')).toBe('Zoë 😀 – fine');
  });

  it('reads the assembled evidence field by field, missing values as a dash, unknown ones as JSON', () => {
    const e = evidenceFacts(
      {
        pspReference: 'PSP1',
        reference: '<b>r</b>',
        amount: '12.50',
        currency: 'EUR',
        capturedAt: null,
        paymentMethod: 'CARD',
        cardBrand: 'VISA',
        last4: '4242',
        storeAddress: { addressLine1: 'Main St 1', city: 'Berlin', postalCode: '10115', country: 'DE' },
        statusHistory: [{ status: 'CAPTURED', previousStatus: 'AUTHORIZED', source: 'ACQUIRER', actionReference: 'a', occurredAt: 'x' }],
        refunds: [{ id: 'r1', amount: '2', status: 'SUCCEEDED', reason: null, createdAt: 'c', decidedAt: null }],
        extra: { nested: 1 },
      },
      (iso) => `at ${iso}`,
      (amount, currency) => formatMoney(amount, currency, 'en-US'),
    );
    const fact = (label: string) => e.facts.find((f) => f.label === label)?.value;
    expect(fact('Receipt reference')).toBe('<b>r</b>');
    expect(fact('Captured amount')).toBe('€12.50');
    expect(fact('Captured')).toBe('—');
    expect(fact('Paid with')).toBe('CARD VISA •••• 4242');
    expect(fact('Store address')).toBe('Main St 1, 10115 Berlin, DE');
    expect(fact('Cashier')).toBe('—');
    expect(e.statusHistory[0]).toMatchObject({ status: 'CAPTURED', occurredAt: 'at x' });
    expect(e.refunds[0]).toMatchObject({ amount: '€2.00', reason: '—', decidedAt: '—' });
    expect(e.other).toEqual([{ label: 'extra', value: '{"nested":1}' }]);
  });
});
