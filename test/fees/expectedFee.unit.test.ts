import fc from 'fast-check';
import Decimal from 'decimal.js';
import { expectedFeeOf, lineFor, type CostLine } from '../../src/fees/expectedFee';
import { netOf } from '../../src/acquirer/sandbox/payouts';
import { sandboxFee } from '../../src/acquirer/sandbox/settlement';
import { totalsOf } from '../../src/settlement/reconcile';
import { SUPPORTED_CURRENCIES } from '../../src/money/currencies';

/** The expected fee (docs/payouts-and-fees.md, "The expected fee"): the line for the mode and brand, percent rounded half up to the minor unit, plus fixed. */
const CARD: CostLine = { paymentMode: 'CARD', percent: '1.4', fixed: '0.1' };
const VISA: CostLine = { paymentMode: 'CARD', cardBrand: 'VISA', percent: '1.2', fixed: '0.05' };
const QR: CostLine = { paymentMode: 'QR_CODE', percent: '0.9', fixed: '0' };
const captured = (capturedAmount: string, over: Partial<{ currency: string; paymentMode: string | null; cardBrand: string | null }> = {}) => ({
  currency: 'EUR',
  capturedAmount,
  paymentMode: 'CARD',
  cardBrand: null,
  ...over,
});

describe('expected fee', () => {
  it("a line naming the payment's brand wins over the mode's line without one; brands compare without case", () => {
    expect(lineFor([CARD, VISA, QR], 'CARD', 'visa')).toBe(VISA);
    expect(lineFor([VISA, CARD], 'CARD', 'MC')).toBe(CARD);
    expect(lineFor([CARD, VISA], 'QR_CODE', null)).toBeUndefined();
    expect(lineFor([VISA], 'CARD', null)).toBeUndefined();
  });

  it('percent of the captured amount rounded half up to the minor unit, plus fixed', () => {
    expect(expectedFeeOf([CARD], captured('12.50'))).toBe('0.28'); // 0.175 -> 0.18, + 0.10
    expect(expectedFeeOf([CARD, VISA], captured('100', { cardBrand: 'VISA' }))).toBe('1.25');
    expect(expectedFeeOf([QR], captured('0.50', { paymentMode: 'QR_CODE' }))).toBe('0'); // 0.0045 -> 0.00
    expect(expectedFeeOf([{ paymentMode: 'CARD', percent: '1.5', fixed: '10' }], captured('1250', { currency: 'JPY' }))).toBe('29'); // 18.75 -> 19, + 10
  });

  it('no line for the mode: null (the payment is not priced by this contract)', () => {
    expect(expectedFeeOf([QR], captured('10'))).toBeNull();
  });

  it("property: the sandbox's report and the contract with the same terms agree to the cent; the batch totals add up; the payout pays exactly the net", () => {
    const currency = fc.constantFrom('EUR', 'USD', 'JPY', 'GBP');
    const pct = fc.integer({ min: 0, max: 1_000_000 }).map((n) => new Decimal(n).dividedBy(10_000).toFixed()); // 0-100, 4 decimals
    fc.assert(
      fc.property(
        currency,
        pct,
        pct,
        fc.integer({ min: 0, max: 500 }),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 10_000_000 }), fc.constantFrom('CARD', 'QR_CODE') as fc.Arbitrary<'CARD' | 'QR_CODE'>), {
          minLength: 1,
          maxLength: 30,
        }),
        (cur, cardPercent, qrPercent, fixedMinor, payments) => {
          const digits = SUPPORTED_CURRENCIES[cur]!.minorUnits;
          const fixed = new Decimal(fixedMinor).dividedBy(10 ** digits).toFixed();
          const terms = { cardPercent, cardFixed: fixed, qrPercent, qrFixed: '0', payoutOutcome: 'PAID' as const, payoutDelayMs: 0 };
          const contract: CostLine[] = [
            { paymentMode: 'CARD', percent: cardPercent, fixed },
            { paymentMode: 'QR_CODE', percent: qrPercent, fixed: '0' },
          ];
          const lines = payments.map(([minor, mode]) => {
            const amount = new Decimal(minor).dividedBy(10 ** digits).toFixed();
            const reported = sandboxFee(amount, cur, mode, terms);
            const expected = expectedFeeOf(contract, captured(amount, { currency: cur, paymentMode: mode }))!;
            expect(new Decimal(expected).equals(reported)).toBe(true);
            return { type: 'PAYMENT', amount, feeAmount: reported, expectedFeeAmount: expected, currency: cur };
          });
          const refunds = payments.filter(([minor], i) => i % 3 === 0 && minor > 1).map(([minor]) => new Decimal(minor - 1).dividedBy(10 ** digits).toFixed());
          for (const amount of refunds) lines.push({ type: 'REFUND', amount, feeAmount: '0', expectedFeeAmount: '0', currency: cur });
          const [t] = totalsOf(lines);
          // The sandbox's payout of this report is exactly the batch's net.
          const items = lines.map((l) => ({
            type: l.type as 'PAYMENT' | 'REFUND',
            acquirerRef: 'x',
            amount: l.amount,
            currency: cur,
            feeAmount: l.feeAmount,
            occurredAt: '',
          }));
          expect(netOf(items).get(cur)!.toFixed()).toBe(new Decimal(t!.netAmount).toFixed());
          expect(new Decimal(t!.expectedFeeAmount).equals(t!.feeAmount)).toBe(true);
          const sum = (type: string, f: (l: (typeof lines)[number]) => string) =>
            lines.filter((l) => l.type === type).reduce((s, l) => s.plus(f(l)), new Decimal(0));
          const gross = sum('PAYMENT', (l) => l.amount);
          const fees = sum('PAYMENT', (l) => l.feeAmount);
          expect(t!.netAmount).toBe(
            gross
              .minus(sum('REFUND', (l) => l.amount))
              .minus(fees)
              .toFixed(),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
