import Decimal from 'decimal.js';
import type { Bill, BillTender } from '../generated/prisma/client';
import type { BillStatus, TenderMethod } from '../../core/bill/statuses';

/** The bill record (docs/bills.md) as every endpoint and event returns it; money as JSON numbers from the exact decimals. */
export interface BillRecord {
  id: string;
  reference: string;
  storeExternalId: string;
  amount: number;
  currency: string;
  paidAmount: number;
  remainingAmount: number;
  status: BillStatus;
  tenders: BillTenderRecord[];
  expiresAt: string;
  createdAt: string;
  updatedAt: string;
}

export interface BillTenderRecord {
  paymentId: string | null;
  sequenceNumber: number;
  status: string;
  method: TenderMethod | null;
  amount: number;
  requestedAmount: number;
  tipAmount: number;
}

export type BillRow = Bill & { tenders: BillTender[] };

export function toBillRecord(b: BillRow): BillRecord {
  const tenders = [...b.tenders].sort((x, y) => x.sequenceNumber - y.sequenceNumber);
  return {
    id: b.id,
    reference: b.reference,
    storeExternalId: b.storeExternalId,
    amount: b.amount.toNumber(),
    currency: b.currency,
    paidAmount: b.paidAmount.toNumber(),
    remainingAmount: Decimal.max(0, new Decimal(b.amount.toFixed()).minus(b.paidAmount.toFixed())).toNumber(),
    status: b.status as BillStatus,
    tenders: tenders.map((t) => ({
      paymentId: t.paymentId,
      sequenceNumber: t.sequenceNumber,
      status: t.status,
      method: t.method as TenderMethod | null,
      amount: t.amount.toNumber(),
      requestedAmount: t.requestedAmount.toNumber(),
      tipAmount: t.tipAmount.toNumber(),
    })),
    expiresAt: b.expiresAt.toISOString(),
    createdAt: b.createdAt.toISOString(),
    updatedAt: b.updatedAt.toISOString(),
  };
}
