import type { MailboxMessage } from '../../src/acquirer/sandbox/mailbox';
import { judgeReceipts, type ReceiptSubject } from '../../scripts/chaos/receiptAnalysis';

/**
 * The chaos run's receipt judge (docs/operations-chaos.md, "Receipts"): one receipt per event by
 * Message-ID, the same Message-ID again only a figure, and the misses it must name.
 */
const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const C = '33333333-3333-4333-8333-333333333333';
const R1 = '44444444-4444-4444-8444-444444444444';

const subjects: ReceiptSubject[] = [
  // captured, refunded once, with an address
  {
    paymentId: A,
    customerEmail: 'chaos-1-1@example.test',
    capturedAt: '2026-11-28T10:00:00.000Z',
    voidedAt: null,
    refunds: [{ id: R1, at: '2026-11-28T10:01:00.000Z' }],
  },
  // captured and voided, with an address
  { paymentId: B, customerEmail: 'chaos-1-4@example.test', capturedAt: '2026-11-28T10:00:00.000Z', voidedAt: '2026-11-28T10:00:05.000Z', refunds: [] },
  // captured, no address
  { paymentId: C, customerEmail: null, capturedAt: '2026-11-28T10:00:00.000Z', voidedAt: null, refunds: [] },
];

const mail = (receiptId: string, to: string, receivedAt: string, text = 'VISA **** 4242'): MailboxMessage => ({
  to: [to],
  subject: `Your receipt from Chaos (PSP123)`,
  text,
  html: null,
  from: '"Chaos" <receipts@localhost>',
  messageId: `<receipt-${receiptId}@localhost>`,
  receivedAt,
});

const allSent = (): MailboxMessage[] => [
  mail(`${A}-captured`, 'chaos-1-1@example.test', '2026-11-28T10:00:02.000Z'),
  mail(`${A}-refund-${R1}`, 'chaos-1-1@example.test', '2026-11-28T10:01:01.000Z'),
  mail(`${B}-captured`, 'chaos-1-4@example.test', '2026-11-28T10:00:01.000Z'),
  mail(`${B}-voided`, 'chaos-1-4@example.test', '2026-11-28T10:00:06.000Z'),
];

it('meets every target when each event of each payment with an address has its receipt, and counts a resend as a figure', () => {
  const resent = mail(`${A}-captured`, 'chaos-1-1@example.test', '2026-11-28T10:00:09.000Z');
  const f = judgeReceipts(subjects, [resent, ...allSent()], []);
  expect({ missing: f.missing, doubled: f.doubled, withoutEmail: f.withoutEmail, personalData: f.personalData }).toEqual({
    missing: [],
    doubled: [],
    withoutEmail: [],
    personalData: [],
  });
  expect({ expected: f.expected, byEvent: f.byEvent, received: f.received, deliveries: f.deliveries, resent: f.resent }).toEqual({
    expected: 4,
    byEvent: { captured: 2, refund: 1, voided: 1 },
    received: 4,
    deliveries: 5,
    resent: 1,
  });
  // From the event to the first delivery: the refund's 1 s, the sale's 2 s.
  expect(f.longestRawMs).toBe(2000);
});

it('names a missing receipt, a second receipt of one event under another id, one for a payment without an address, and a card number', () => {
  const messages = [
    mail(`${B}-captured`, 'chaos-1-4@example.test', '2026-11-28T10:00:03.000Z', 'card 4242 4242 4242 4242'),
    ...allSent().filter((m) => !m.messageId!.includes('-voided')),
    mail(`${A}-refund-seq3`, 'chaos-1-1@example.test', '2026-11-28T10:01:02.000Z'),
    mail(`${C}-captured`, 'nobody@example.test', '2026-11-28T10:00:02.000Z'),
  ];
  const f = judgeReceipts(subjects, messages, []);
  expect(f.missing.map((p) => p.receiptId)).toEqual([`${B}-voided`]);
  expect(f.doubled.map((p) => p.receiptId)).toEqual([`${A}-refund-seq3`]);
  expect(f.withoutEmail.map((p) => p.receiptId)).toEqual([`${C}-captured`]);
  // A second delivery of B's sale receipt showed the full number: every delivery is read.
  expect(f.personalData.map((p) => p.why)).toEqual(['a card number in the email: 4242 4242 4242 4242']);
});

it('leaves the fault windows out of the time from an event to its receipt', () => {
  const f = judgeReceipts(subjects, allSent(), [{ startedAt: Date.parse('2026-11-28T10:00:00.500Z'), endedAt: Date.parse('2026-11-28T10:00:01.500Z') }]);
  expect(f.longestRawMs).toBe(2000);
  expect(f.longestNetMs).toBe(1000);
});
