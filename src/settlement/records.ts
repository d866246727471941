import type { Client } from '@temporalio/client';
import Decimal from 'decimal.js';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { conflict, notFound } from '../domain/errors';
import { dateWhere, listArgs, pageArgs } from '../domain/listQuery';
import { csvText } from '../security/csvCell';
import type { Prisma, SettlementBatch, SettlementDiscrepancy, SettlementLine } from '../generated/prisma/client';
import type { SettlementCloseResult } from '../../core/settlement';
import { startClose } from './closeStart';
import type { CurrencyTotals } from './reconcile';

/**
 * Settlements as dashboard users see them (docs/settlement.md): close a store's batch, list and read
 * batches, page and export their lines. Always scoped to the caller's business; a batch still
 * closing (or one that found nothing) is not shown.
 */
export const SHOWN_STATUSES = ['SETTLED', 'DISCREPANCY'];

const num = (d: Decimal.Value | null): number | null => (d === null ? null : Number(new Decimal(d).toFixed()));

export interface BatchRecord {
  id: string;
  storeExternalId: string;
  date: string;
  timezone: string;
  mode: string;
  status: string;
  closedAt: string;
  closedBy: string;
  totals: {
    currency: string;
    paymentCount: number;
    grossAmount: number;
    refundCount: number;
    refundAmount: number;
    feeAmount: number;
    chargebackAmount: number;
    expectedFeeAmount: number;
    /** The payment lines' tips, contained in grossAmount (docs/tips.md); 0 for batches closed before tips. */
    tipAmount: number;
    netAmount: number;
  }[];
  discrepancies: {
    type: string;
    paymentId: string | null;
    acquirerRef: string | null;
    currency: string;
    expectedAmount: number | null;
    reportedAmount: number | null;
  }[];
}

export function toBatchRecord(b: SettlementBatch & { discrepancies: SettlementDiscrepancy[] }): BatchRecord {
  return {
    id: b.id,
    storeExternalId: b.storeExternalId,
    date: b.date,
    timezone: b.timezone,
    mode: b.mode,
    status: b.status,
    closedAt: b.closedAt.toISOString(),
    closedBy: b.closedBy,
    totals: (b.totals as unknown as CurrencyTotals[]).map((t) => ({
      currency: t.currency,
      paymentCount: t.paymentCount,
      grossAmount: num(t.grossAmount)!,
      refundCount: t.refundCount,
      refundAmount: num(t.refundAmount)!,
      feeAmount: num(t.feeAmount)!,
      // Batches closed before disputes' money (migration 0024) had none.
      chargebackAmount: num(t.chargebackAmount ?? 0)!,
      // Batches closed before the fee audit (migration 0021) had no contracts: their fees stand.
      expectedFeeAmount: num(t.expectedFeeAmount ?? t.feeAmount)!,
      tipAmount: num(t.tipAmount ?? 0)!,
      netAmount: num(t.netAmount)!,
    })),
    discrepancies: [...b.discrepancies]
      .sort((x, y) => Number(x.id - y.id))
      .map((d) => ({
        type: d.type,
        paymentId: d.paymentId,
        acquirerRef: d.acquirerRef,
        currency: d.currency,
        expectedAmount: num(d.expectedAmount),
        reportedAmount: num(d.reportedAmount),
      })),
  };
}

export interface LineRecord {
  type: string;
  paymentId: string | null;
  pspReference: string | null;
  reference: string | null;
  amount: number;
  feeAmount: number;
  /** A payment line's fee under its account's cost contract (docs/payouts-and-fees.md); null without one. */
  expectedFeeAmount: number | null;
  /** A payment line's tip, inside its amount (docs/tips.md); 0 on other lines. */
  tipAmount: number;
  netAmount: number;
  currency: string;
  occurredAt: string;
  /** The acquirer account that reported it (docs/acquirers.md, "Settlement per account"); null: the installation default. */
  acquirerAccountId: string | null;
  /** A CHARGEBACK or CHARGEBACK_REVERSAL line's dispute: ours (the id it has, or will have once notified) and the acquirer's; null on other lines. */
  disputeId: string | null;
  acquirerDisputeId: string | null;
}

export function toLineRecord(l: SettlementLine): LineRecord {
  return {
    type: l.type,
    paymentId: l.paymentId,
    pspReference: l.pspReference,
    reference: l.reference,
    amount: num(l.amount)!,
    feeAmount: num(l.feeAmount ?? 0)!,
    expectedFeeAmount: num(l.expectedFeeAmount),
    tipAmount: num(l.tipAmount)!,
    netAmount: num(l.netAmount ?? l.amount)!,
    currency: l.currency,
    occurredAt: l.occurredAt.toISOString(),
    acquirerAccountId: l.acquirerAccountId,
    disputeId: l.disputeId,
    acquirerDisputeId: l.acquirerDisputeId,
  };
}

export async function findOwnBatch(db: Db, merchantId: string, id: string) {
  const batch = await db.settlementBatch.findFirst({ where: { id, merchantId, status: { in: SHOWN_STATUSES } }, include: { discrepancies: true } });
  if (!batch) throw notFound(`settlement ${id}`);
  return batch;
}

export async function listBatches(
  db: Db,
  merchantId: string,
  q: { storeExternalId?: string; mode?: string; from?: string; to?: string; page: number; size: number },
) {
  const where: Prisma.SettlementBatchWhereInput = {
    merchantId,
    status: { in: SHOWN_STATUSES },
    ...(q.storeExternalId ? { storeExternalId: q.storeExternalId } : {}),
    ...(q.mode ? { mode: q.mode } : {}),
    ...dateWhere('date', q),
  };
  const [total, rows] = await Promise.all([
    db.settlementBatch.count({ where }),
    db.settlementBatch.findMany({
      where,
      include: { discrepancies: true },
      ...listArgs('closedAt', q),
    }),
  ]);
  return { total, rows };
}

/** The lines the acquirer settled, in the order they were claimed. */
export const batchLines = (db: Db, batchId: string, paging?: { page: number; size: number }) =>
  db.settlementLine.findMany({
    where: { batchId, reported: true },
    orderBy: { id: 'asc' },
    ...(paging ? pageArgs(paging) : {}),
  });
export const batchLineCount = (db: Db, batchId: string) => db.settlementLine.count({ where: { batchId, reported: true } });

const CSV_COLUMNS = [
  'type',
  'paymentId',
  'pspReference',
  'reference',
  'amount',
  'feeAmount',
  'netAmount',
  'currency',
  'occurredAt',
  'acquirerAccountId',
  'expectedFeeAmount',
  'disputeId',
  'acquirerDisputeId',
  'tipAmount',
] as const;

/** The lines as CSV with a header row, exact decimals (cells made safe by src/security/csvCell.ts). */
export function linesCsv(lines: SettlementLine[]): string {
  const rows = lines.map((l) => {
    const r = toLineRecord(l);
    const exact = {
      ...r,
      amount: l.amount.toFixed(),
      feeAmount: (l.feeAmount ?? 0).toString(),
      netAmount: (l.netAmount ?? l.amount).toString(),
      expectedFeeAmount: l.expectedFeeAmount?.toFixed() ?? '',
      disputeId: l.disputeId ?? '',
      acquirerDisputeId: l.acquirerDisputeId ?? '',
      tipAmount: l.tipAmount.toFixed(),
    };
    return CSV_COLUMNS.map((c) => exact[c]);
  });
  return csvText(CSV_COLUMNS, rows);
}

/** Closes the store's open batch now and waits for the close to finish (a durable workflow: it completes even if this caller goes away). */
export async function closeStoreBatch(deps: { db: Db; temporal: Client; config: Config }, merchantId: string, storeExternalId: string, username: string) {
  const store = await deps.db.store.findFirst({ where: { merchantId, externalId: storeExternalId } });
  if (!store) throw notFound(`store '${storeExternalId}'`);
  const handle = await startClose(deps.temporal, deps.config, store, username);
  if (!handle) throw conflict(`a settlement close of store '${storeExternalId}' is already running`);
  const result = (await handle.result()) as SettlementCloseResult;
  if (result.empty) throw conflict(`nothing waiting for settlement in store '${storeExternalId}'`);
  return findOwnBatch(deps.db, merchantId, result.batchId);
}
