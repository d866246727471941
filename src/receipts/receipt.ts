import Decimal from 'decimal.js';
import type { Db } from '../db/client';
import type { Payment } from '../generated/prisma/client';
import { conflict } from '../domain/errors';
import { hasReceipt } from '../../core/receipt/rules';
import { amountText } from '../money/amountText';
import { tipAndTotal } from './amounts';
import { layoutReceipt } from './lines';
import { formatMoney } from './money';
import { printedTime, zonedIso } from './zonedTime';

/**
 * The receipt of a payment (docs/receipts.md): built from the service's own records (the payment,
 * its store, terminal, business and succeeded refunds), for the API, the printable page and the
 * email alike.
 */
export interface Receipt {
  paymentId: string;
  merchantName: string;
  storeName: string;
  storeAddress: string | null;
  terminalLabel: string | null;
  reference: string | null;
  pspReference: string;
  status: string;
  paymentMethod: string | null;
  cardBrand: string | null;
  last4: string | null;
  amount: number;
  tipAmount: number;
  totalAmount: number;
  refundedAmount: number;
  currency: string;
  cashierId: string | null;
  /** In the store's time zone, with its offset. */
  occurredAt: string;
  /** The printable receipt, at most 48 characters a line. */
  lines: string[];
}

export { hasReceipt };

/** The words a status is printed with: a captured payment cancelled afterwards was voided. */
function statusWords(p: Pick<Payment, 'status' | 'previousStatus'>): string {
  if (p.status === 'CANCELLED' && p.previousStatus === 'CAPTURED') return 'VOIDED: the amount was given back';
  if (p.status === 'CANCELLED' && p.previousStatus === 'AUTHORIZED') return 'RELEASED: nothing was charged';
  if (p.status === 'AUTHORIZED') return 'AUTHORISED, not yet charged';
  if (p.status === 'REFUNDED') return 'REFUNDED';
  if (p.status === 'PARTIALLY_REFUNDED') return 'PARTIALLY REFUNDED';
  return 'APPROVED';
}

const num = (d: Decimal): number => Number(d.toFixed());

export async function buildReceipt(db: Db, payment: Payment): Promise<Receipt> {
  if (!hasReceipt(payment)) throw conflict(`the payment is ${payment.status}: a receipt exists once it was captured or authorised`);
  const [merchant, store, terminal, refunds] = await Promise.all([
    db.merchant.findUniqueOrThrow({ where: { id: payment.merchantId }, select: { name: true } }),
    db.store.findFirst({ where: { merchantId: payment.merchantId, externalId: payment.storeExternalId } }),
    db.terminal.findFirst({ where: { merchantId: payment.merchantId, externalId: payment.terminalExternalId }, select: { label: true } }),
    db.refund.findMany({ where: { paymentId: payment.id, status: 'SUCCEEDED' }, orderBy: { createdAt: 'asc' } }),
  ]);
  const currency = payment.currency;
  const money = (d: Decimal.Value) => formatMoney(amountText(new Decimal(d), currency), currency);
  const { tipAmount, totalAmount } = tipAndTotal(payment);
  const amount = new Decimal(payment.amount.toString());
  const refunded = new Decimal(payment.refundedAmount.toString());
  const timeZone = store?.timezone ?? 'UTC';
  const occurredAt = zonedIso(payment.capturedAt ?? payment.authorizedAt ?? payment.createdAt, timeZone);
  const storeAddress = store ? [store.addressLine1, [store.postalCode, store.city].filter(Boolean).join(' '), store.country].filter(Boolean).join(', ') : null;
  const card = payment.last4 ? `${payment.cardBrand ?? 'CARD'} **** ${payment.last4}` : payment.paymentMethod;

  const lines = layoutReceipt({
    merchantName: merchant.name,
    storeName: store?.name ?? payment.storeExternalId,
    storeAddress: storeAddress || null,
    details: [
      ['Date', printedTime(occurredAt)],
      ['Terminal', terminal?.label ?? payment.terminalExternalId],
      ['Reference', payment.reference],
      ['PSP reference', payment.pspReference],
      ['Cashier', payment.cashierId],
    ],
    card,
    amounts: [['Amount', money(amount)], ...(tipAmount.isZero() ? [] : ([['Tip', money(tipAmount)]] as [string, string][])), ['TOTAL', money(totalAmount)]],
    refunds: [
      ...refunds.map((r): [string, string] => [
        `Refund ${printedTime(zonedIso(r.decidedAt ?? r.createdAt, timeZone))}`,
        money(new Decimal(r.amount.toString()).neg()),
      ]),
      ...(refunds.length ? ([['Refunded', money(refunded.neg())]] as [string, string][]) : []),
    ],
    footer: [statusWords(payment), 'Thank you'],
  });

  return {
    paymentId: payment.id,
    merchantName: merchant.name,
    storeName: store?.name ?? payment.storeExternalId,
    storeAddress: storeAddress || null,
    terminalLabel: terminal?.label ?? null,
    reference: payment.reference,
    pspReference: payment.pspReference,
    status: payment.status,
    paymentMethod: payment.paymentMethod,
    cardBrand: payment.cardBrand,
    last4: payment.last4,
    amount: num(amount),
    tipAmount: num(tipAmount),
    totalAmount: num(totalAmount),
    refundedAmount: num(refunded),
    currency,
    cashierId: payment.cashierId,
    occurredAt,
    lines,
  };
}
