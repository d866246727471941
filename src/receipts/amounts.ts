import Decimal from 'decimal.js';

type DecimalLike = { toString(): string };

/**
 * A payment's tip and what the card was charged (docs/receipts.md): the one place a receipt reads
 * them. A payment without tips (the field absent) has tip 0 and a total equal to its amount.
 */
export function tipAndTotal(payment: { amount: DecimalLike; tipAmount?: DecimalLike | null; totalAmount?: DecimalLike | null }): {
  tipAmount: Decimal;
  totalAmount: Decimal;
} {
  const amount = new Decimal(payment.amount.toString());
  const tipAmount = new Decimal((payment.tipAmount ?? 0).toString());
  const totalAmount = payment.totalAmount !== undefined && payment.totalAmount !== null ? new Decimal(payment.totalAmount.toString()) : amount.plus(tipAmount);
  return { tipAmount, totalAmount };
}
