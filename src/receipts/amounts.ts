import Decimal from 'decimal.js';
import { totalOf } from '../../core/payment/transition';

type DecimalLike = { toString(): string };

/**
 * A payment's tip and what the card was charged (docs/receipts.md): the one place a receipt reads
 * them. A payment without tips (the field absent) has tip 0; the total, when the record does not
 * carry it, is the payment's one total rule (totalOf, docs/tips.md).
 */
export function tipAndTotal(payment: { amount: DecimalLike; tipAmount?: DecimalLike | null; totalAmount?: DecimalLike | null }): {
  tipAmount: Decimal;
  totalAmount: Decimal;
} {
  const tipAmount = new Decimal((payment.tipAmount ?? 0).toString());
  const totalAmount =
    payment.totalAmount !== undefined && payment.totalAmount !== null
      ? new Decimal(payment.totalAmount.toString())
      : new Decimal(totalOf({ amount: payment.amount.toString(), tipAmount: tipAmount.toFixed() }));
  return { tipAmount, totalAmount };
}
