import { percentFee } from '../money/fee';

/**
 * The expected fee of a captured payment under a cost contract (docs/payouts-and-fees.md, "The expected fee"), as a pure
 * function: the line for its payment mode and card brand (a line naming the brand wins over one
 * without), priced by the one fee formula (src/money/fee.ts) on the captured amount. Exact decimal
 * text in, exact decimal text out.
 */
export interface CostLine {
  paymentMode: 'CARD' | 'QR_CODE';
  cardBrand?: string | null;
  /** Exact decimal text, 0-100. */
  percent: string;
  /** Exact decimal text in the currency, >= 0. */
  fixed: string;
}

export interface CapturedFacts {
  currency: string;
  capturedAmount: string;
  paymentMode: string | null;
  cardBrand: string | null;
}

/** The line that prices the payment: its brand's line for its mode, else its mode's line without a brand; none: undefined. */
export function lineFor(lines: readonly CostLine[], mode: string | null, cardBrand: string | null): CostLine | undefined {
  const ofMode = lines.filter((l) => l.paymentMode === (mode ?? 'CARD'));
  const brand = cardBrand?.toUpperCase();
  return (brand ? ofMode.find((l) => l.cardBrand?.toUpperCase() === brand) : undefined) ?? ofMode.find((l) => !l.cardBrand);
}

/** The fee the contract's lines give the payment; null when no line prices it. */
export function expectedFeeOf(lines: readonly CostLine[], p: CapturedFacts): string | null {
  const line = lineFor(lines, p.paymentMode, p.cardBrand);
  if (!line) return null;
  return percentFee(p.capturedAmount, p.currency, line.percent, line.fixed).toFixed();
}
