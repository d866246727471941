import crypto from 'node:crypto';
import Decimal from 'decimal.js';
import type { Acquirers } from '../acquirer/acquirers';
import { acquirerKeyOf, resolverOf, type ReportSource } from '../acquirer/resolver';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { type Payment, Prisma, type SettlementBatch, type SettlementLine } from '../generated/prisma/client';
import { newPspReference } from '../payments/pspReference';
import { audit } from '../audit/audit';
import { paymentWorkflowId } from '../../core/payment/messages';
import { isSettleable } from '../../core/payment/statuses';
import type { SettlementCloseInput } from '../../core/settlement';
import { chargebackNet, type Claim, feeMismatchOf, isChargeback, reconcile, type Reconciliation, type ReportedItem, totalsOf } from './reconcile';
import { disputeIdOf } from '../disputes/ids';
import { paymentClaimable, refundClaimable } from './claimable';

/** A reported item with the source (device and account) whose report carried it. */
type SourcedItem = ReportedItem & { source: ReportSource };

/**
 * The steps of one close (docs/settlement.md), each safe to run again after a crash at any point:
 * open (claim what is waiting), reconcile (fetch the acquirer's report by the batch's reference
 * and compare, in one transaction), then the close workflow settles each payment through its own
 * workflow and finishes the batch. The partial unique indexes on SettlementLine keep every
 * payment and refund in one batch at most, whatever runs concurrently.
 */
/** `closedBy` of the daily close. */
export const SYSTEM_CLOSER = 'SYSTEM';

export interface SettlementDeps {
  db: Db;
  /** Each device's report comes from the acquirer of its payments (src/acquirer/resolver.ts, `reportSources`). */
  acquirers: Acquirers;
  config: Config;
}

/**
 * Where a device's report starts (a close reports what settled since the previous
 * one): the `until` of the business's previous close of the same mode that asked this device; for
 * its first close, when it was linked to one of the business's terminals or its first payment
 * here, whichever is earlier. Derived from what is stored, so a retried close asks for the same period.
 */
export async function reportSince(db: Db, batch: { id: string; merchantId: string; mode: string; until: Date }, deviceId: string): Promise<string | null> {
  const previous = await db.settlementBatch.findFirst({
    where: { merchantId: batch.merchantId, mode: batch.mode, id: { not: batch.id }, deviceIds: { has: deviceId }, until: { lt: batch.until } },
    orderBy: { until: 'desc' },
    select: { until: true },
  });
  if (previous) return previous.until.toISOString();
  const terminals = await db.terminal.findMany({ where: { merchantId: batch.merchantId, deviceId }, select: { linkedAt: true, createdAt: true } });
  const first = await db.payment.findFirst({
    where: { merchantId: batch.merchantId, mode: batch.mode, deviceId },
    orderBy: { createdAt: 'asc' },
    select: { createdAt: true },
  });
  const starts = [...terminals.map((t) => t.linkedAt ?? t.createdAt), ...(first ? [first.createdAt] : [])].map((d) => d.getTime());
  return starts.length ? new Date(Math.min(...starts)).toISOString() : null;
}

/** What opening a batch needs: the close's input without the daily close's date. */
export type OpenBatchInput = Omit<SettlementCloseInput, 'autoCloseDate'>;

/** Creates the batch (once) and claims every captured payment of the store not yet in a batch. */
export async function openBatch(deps: SettlementDeps, input: OpenBatchInput): Promise<{ claimed: number }> {
  const { db } = deps;
  const store = await db.store.findUniqueOrThrow({ where: { id: input.storeId }, include: { terminals: { select: { deviceId: true } } } });
  const existing = await db.settlementBatch.findUnique({ where: { id: input.batchId } });
  if (existing && existing.status !== 'CLOSING') return { claimed: await db.settlementLine.count({ where: { batchId: input.batchId } }) };
  if (!existing) {
    await db.settlementBatch.upsert({
      where: { id: input.batchId },
      create: {
        id: input.batchId,
        merchantId: store.merchantId,
        storeId: store.id,
        storeExternalId: store.externalId,
        date: input.date,
        timezone: store.timezone,
        mode: store.mode,
        status: 'CLOSING',
        closedAt: new Date(input.closedAt),
        closedBy: input.closedBy,
        until: new Date(input.until),
      },
      update: {},
    });
  }
  // Only the store's own mode: a payment or refund of the other mode is never claimed by this batch.
  const scope = { storeId: Prisma.sql`${store.id}`, mode: Prisma.sql`${store.mode}`, until: new Date(input.until) };
  await db.$executeRaw`
    INSERT INTO "SettlementLine" ("batchId", "type", "paymentId", "acquirerRef", "pspReference", "reference", "amount", "currency", "occurredAt", "acquirerAccountId", "expectedFeeAmount", "tipAmount")
    SELECT ${input.batchId}, 'PAYMENT', p."id", p."acquirerRef", p."pspReference", p."reference", COALESCE(p."capturedAmount", p."amount"), p."currency", p."capturedAt", p."acquirerAccountId", p."expectedFee", p."tipAmount"
    FROM "Payment" p
    WHERE ${paymentClaimable(scope)}
    ON CONFLICT ("paymentId") WHERE "type" = 'PAYMENT' DO NOTHING`;
  await db.$executeRaw`
    INSERT INTO "SettlementLine" ("batchId", "type", "paymentId", "refundId", "acquirerRef", "pspReference", "reference", "amount", "currency", "occurredAt", "acquirerAccountId")
    SELECT ${input.batchId}, 'REFUND', r."paymentId", r."id", p."acquirerRef", p."pspReference", p."reference", r."amount", r."currency", r."decidedAt", p."acquirerAccountId"
    FROM "Refund" r JOIN "Payment" p ON p."id" = r."paymentId"
    WHERE ${refundClaimable(scope)}
    ON CONFLICT ("refundId") WHERE "type" = 'REFUND' DO NOTHING`;
  // The devices to ask: every linked terminal's, and those of the claimed payments (a terminal may have been re-linked).
  const claimedDevices = await db.$queryRaw<{ deviceId: string }[]>`
    SELECT DISTINCT p."deviceId" FROM "SettlementLine" l JOIN "Payment" p ON p."id" = l."paymentId"
    WHERE l."batchId" = ${input.batchId} AND p."deviceId" IS NOT NULL`;
  const deviceIds = [...new Set([...store.terminals.map((t) => t.deviceId), ...claimedDevices.map((d) => d.deviceId)].filter((d): d is string => !!d))].sort();
  await db.settlementBatch.update({ where: { id: input.batchId }, data: { deviceIds } });
  return { claimed: await db.settlementLine.count({ where: { batchId: input.batchId } }) };
}

export type ReconcileResult = { empty: true } | { empty: false; toSettle: number };

/** A discrepancy as found, before it is given its batch. */
interface Discrepancy {
  type: string;
  paymentId: string | null;
  acquirerRef: string | null;
  currency: string;
  expectedAmount: string | null;
  reportedAmount: string | null;
}

type Reconciled = Reconciliation<SourcedItem>;

/**
 * Fetches each device's report (the batch id is the acquirer's batch reference, so a retry gets
 * the same report) and records the outcome in one transaction: matched lines get fee and net,
 * unreported claims are released with a MISSING_FROM_REPORT discrepancy, reported payments
 * unknown here are recorded SETTLED with origin SETTLEMENT_REPORT (NOT_IN_PLATFORM).
 * docs/settlement.md. Each step below has one purpose; in this order they issue the statements
 * of one reconciliation, the transaction's in it.
 */
export async function reconcileBatch(deps: SettlementDeps, batchId: string): Promise<ReconcileResult> {
  const { db } = deps;
  const batch = await db.settlementBatch.findUniqueOrThrow({ where: { id: batchId } });
  if (batch.status === 'EMPTY') return { empty: true };
  if (batch.status !== 'CLOSING') return { empty: false, toSettle: await pendingCount(db, batchId) };

  const items = await fetchReports(deps, batch);
  const lines = await db.settlementLine.findMany({ where: { batchId } });
  const chargebacks = items.filter(isChargeback);
  const result = reconcile(
    await claimsOf(db, lines),
    items.filter((i) => !isChargeback(i)),
  );
  if (result.matched.length === 0 && result.missing.length === 0 && result.unclaimed.length === 0 && chargebacks.length === 0) {
    await db.settlementBatch.update({ where: { id: batchId }, data: { status: 'EMPTY' } });
    return { empty: true };
  }

  await db.$transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const discrepancies = [...(await recordMatched(tx, batchId, result.matched, lines)), ...(await releaseMissing(tx, batchId, result.missing, lines))];
    for (const item of result.unclaimed) {
      if (item.type === 'REFUND') await recordLateRefund(tx, batch, item);
      else discrepancies.push(...(await recordUnclaimedPayment(tx, batch, item)));
    }
    for (const item of chargebacks) await recordChargeback(tx, batch, item);
    await markSettling(tx, batchId, discrepancies);
  });
  return { empty: false, toSettle: await pendingCount(db, batchId) };
}

/** Every source's report of the batch, its items each with the source that reported it. */
async function fetchReports(deps: SettlementDeps, batch: SettlementBatch): Promise<SourcedItem[]> {
  const items: SourcedItem[] = [];
  for (const source of await resolverOf(deps).reportSources(batch)) {
    const report = await source.acquirer.closeBatch(
      source.deviceId,
      source.batchReference,
      batch.until.toISOString(),
      await reportSince(deps.db, batch, source.deviceId),
    );
    for (const item of report.items) items.push({ ...item, deviceId: source.deviceId, source });
  }
  return items;
}

/** The batch's lines as claims to match; a refund is known to the acquirer by its refundReference. */
async function claimsOf(db: Db, lines: SettlementLine[]): Promise<Claim[]> {
  const refundIds = lines.flatMap((l) => (l.refundId ? [l.refundId] : []));
  const refunds = new Map(
    (await db.refund.findMany({ where: { id: { in: refundIds } }, select: { id: true, refundReference: true } })).map((r) => [r.id, r.refundReference]),
  );
  return lines.map((l) => ({
    type: l.type as Claim['type'],
    key: (l.type === 'PAYMENT' ? l.acquirerRef : refunds.get(l.refundId ?? '')) ?? '',
    refundId: l.refundId ?? undefined,
    paymentId: l.paymentId ?? '',
    amount: l.amount.toFixed(),
    currency: l.currency,
  }));
}

/** The line a claim stands for. */
const claimWhere = (batchId: string, c: Claim) => ({
  batchId,
  type: c.type,
  ...(c.type === 'PAYMENT' ? { paymentId: c.paymentId } : { refundId: c.refundId }),
});

/** Matched lines take the reported amount, fee and net; a fee off contract or an amount off the claim is a discrepancy. */
async function recordMatched(tx: Db, batchId: string, matched: Reconciled['matched'], lines: SettlementLine[]): Promise<Discrepancy[]> {
  const discrepancies: Discrepancy[] = [];
  for (const m of matched) {
    const fee = new Decimal(m.item.feeAmount);
    await tx.settlementLine.updateMany({
      where: claimWhere(batchId, m.claim),
      data: {
        reported: true,
        amount: m.item.amount,
        feeAmount: fee.toFixed(),
        netAmount: (m.claim.type === 'PAYMENT' ? new Decimal(m.item.amount).minus(fee) : new Decimal(m.item.amount).negated()).toFixed(),
      },
    });
    if (m.claim.type === 'PAYMENT') {
      const feeMismatch = feeMismatchOf(lines.find((l) => l.type === 'PAYMENT' && l.paymentId === m.claim.paymentId)?.expectedFeeAmount ?? null, fee);
      if (feeMismatch) discrepancies.push({ ...feeMismatch, paymentId: m.claim.paymentId, acquirerRef: m.item.acquirerRef, currency: m.claim.currency });
    }
    if (m.mismatch)
      discrepancies.push({
        type: 'AMOUNT_MISMATCH',
        paymentId: m.claim.paymentId,
        acquirerRef: m.item.acquirerRef,
        currency: m.claim.currency,
        expectedAmount: m.claim.amount,
        reportedAmount: m.item.amount,
      });
  }
  return discrepancies;
}

/** Claims the acquirer did not settle: released, so the next batch claims them again, each a MISSING_FROM_REPORT discrepancy. */
async function releaseMissing(tx: Db, batchId: string, missing: Claim[], lines: SettlementLine[]): Promise<Discrepancy[]> {
  const discrepancies: Discrepancy[] = [];
  for (const c of missing) {
    await tx.settlementLine.deleteMany({ where: claimWhere(batchId, c) });
    const acquirerRef = c.type === 'PAYMENT' ? c.key : (lines.find((l) => l.refundId === c.refundId)?.acquirerRef ?? null);
    discrepancies.push({
      type: 'MISSING_FROM_REPORT',
      paymentId: c.paymentId,
      acquirerRef,
      currency: c.currency,
      expectedAmount: c.amount,
      reportedAmount: null,
    });
  }
  return discrepancies;
}

/**
 * A reported refund no line claimed: ours, paid after this batch's cut-off, the acquirer settled
 * it, so it is in this batch. One we never sent (or another business's, mode's, or one already in
 * a batch) is not ours to record.
 */
async function recordLateRefund(tx: Db, batch: SettlementBatch, item: SourcedItem): Promise<void> {
  const refund = item.refundReference ? await tx.refund.findUnique({ where: { refundReference: item.refundReference }, include: { payment: true } }) : null;
  if (
    !refund ||
    refund.merchantId !== batch.merchantId ||
    refund.mode !== batch.mode ||
    (await tx.settlementLine.findFirst({ where: { type: 'REFUND', refundId: refund.id } }))
  )
    return;
  await tx.settlementLine.create({
    data: {
      batchId: batch.id,
      type: 'REFUND',
      paymentId: refund.paymentId,
      refundId: refund.id,
      acquirerRef: item.acquirerRef,
      pspReference: refund.payment.pspReference,
      reference: refund.payment.reference,
      amount: item.amount,
      feeAmount: item.feeAmount,
      netAmount: new Decimal(item.amount).negated().toFixed(),
      currency: item.currency,
      occurredAt: new Date(item.occurredAt),
      reported: true,
      acquirerAccountId: item.source.accountId,
    },
  });
}

/**
 * A reported payment no line claimed: ours (captured after the cut-off or not yet projected) is
 * settled here unless it cannot be; one unknown here is recorded from the report (NOT_IN_PLATFORM).
 */
async function recordUnclaimedPayment(tx: Db, batch: SettlementBatch, item: SourcedItem): Promise<Discrepancy[]> {
  const known = await tx.payment.findFirst({ where: { merchantId: batch.merchantId, acquirerRef: item.acquirerRef } });
  const fee = new Decimal(item.feeAmount);
  const line = {
    batchId: batch.id,
    type: 'PAYMENT',
    acquirerRef: item.acquirerRef,
    amount: item.amount,
    feeAmount: fee.toFixed(),
    netAmount: new Decimal(item.amount).minus(fee).toFixed(),
    currency: item.currency,
    occurredAt: new Date(item.occurredAt),
    reported: true,
    acquirerAccountId: item.source.accountId,
  };
  if (known) return settleKnownPayment(tx, batch, item, known, line, fee);
  const paymentId = await recordReportOnlyPayment(tx, item.source, batch, item);
  const pspReference = (await tx.payment.findUniqueOrThrow({ where: { id: paymentId }, select: { pspReference: true } })).pspReference;
  await tx.settlementLine.create({ data: { ...line, paymentId, pspReference, reference: item.reference ?? null, appliedAt: null } });
  return [{ type: 'NOT_IN_PLATFORM', paymentId, acquirerRef: item.acquirerRef, currency: item.currency, expectedAmount: null, reportedAmount: item.amount }];
}

/**
 * Our payment, reported but unclaimed: the acquirer settled it, so it is settled here; one already
 * in a batch, not settleable, or of another mode is never settled in this batch (nor recorded
 * twice): reported, not taken, an AMOUNT_MISMATCH.
 */
async function settleKnownPayment(
  tx: Db,
  batch: SettlementBatch,
  item: SourcedItem,
  known: Payment,
  line: Omit<Prisma.SettlementLineUncheckedCreateInput, 'paymentId'>,
  fee: Decimal,
): Promise<Discrepancy[]> {
  const inBatch = await tx.settlementLine.findFirst({ where: { type: 'PAYMENT', paymentId: known.id } });
  if (inBatch || !isSettleable(known.status) || known.mode !== batch.mode) {
    return [
      {
        type: 'AMOUNT_MISMATCH',
        paymentId: known.id,
        acquirerRef: item.acquirerRef,
        currency: item.currency,
        expectedAmount: null,
        reportedAmount: item.amount,
      },
    ];
  }
  await tx.settlementLine.create({
    data: {
      ...line,
      paymentId: known.id,
      pspReference: known.pspReference,
      reference: known.reference,
      expectedFeeAmount: known.expectedFee,
      tipAmount: known.tipAmount,
    },
  });
  const discrepancies: Discrepancy[] = [];
  const feeMismatch = feeMismatchOf(known.expectedFee, fee);
  if (feeMismatch) discrepancies.push({ ...feeMismatch, paymentId: known.id, acquirerRef: item.acquirerRef, currency: item.currency });
  const expected = known.capturedAmount ?? known.amount;
  if (!expected.equals(item.amount)) {
    discrepancies.push({
      type: 'AMOUNT_MISMATCH',
      paymentId: known.id,
      acquirerRef: item.acquirerRef,
      currency: item.currency,
      expectedAmount: expected.toFixed(),
      reportedAmount: item.amount,
    });
  }
  return discrepancies;
}

/** The discrepancies found, then the batch's totals from its lines as they now stand, and the batch SETTLING. */
async function markSettling(tx: Db, batchId: string, discrepancies: Discrepancy[]): Promise<void> {
  if (discrepancies.length > 0) await tx.settlementDiscrepancy.createMany({ data: discrepancies.map((d) => ({ batchId, ...d })) });
  const settled = await tx.settlementLine.findMany({
    where: { batchId },
    select: { type: true, amount: true, feeAmount: true, expectedFeeAmount: true, tipAmount: true, currency: true },
  });
  await tx.settlementBatch.update({
    where: { id: batchId },
    data: { status: 'SETTLING', totals: totalsOf(settled) as unknown as object[] },
  });
}

/**
 * A dispute's money as reported (docs/disputes.md, "Settlement: the dispute's money"): a CHARGEBACK line (net minus the amount) or a
 * CHARGEBACK_REVERSAL line (net plus it), linked to the disputed payment when we know it and to the
 * dispute by the id it has or will have here: ours derives from the acquirer's, so a line reported
 * before the dispute's notification arrived names the dispute all the same. Once per booking, by
 * the acquirer's key for it (`bookingRef`, a unique index on (disputeId, bookingRef), migration
 * 0027): a report read again records nothing more, and a second debit of one dispute (Adyen's
 * SecondChargeback after a ChargebackReversed) is a second CHARGEBACK line.
 */
async function recordChargeback(tx: Db, batch: { id: string; merchantId: string }, item: SourcedItem): Promise<void> {
  const type = item.type as 'CHARGEBACK' | 'CHARGEBACK_REVERSAL';
  const acquirerDisputeId = item.disputeId ?? '';
  const select = { id: true, pspReference: true, reference: true, acquirerAccountId: true, acquirerName: true } as const;
  const payment =
    (await tx.payment.findFirst({ where: { merchantId: batch.merchantId, acquirerRef: item.acquirerRef }, select })) ??
    // A report that names the bill by our payment id (Adyen's Merchant Reference) whatever its reference at the acquirer (a pre-authorisation's).
    (item.paymentId
      ? await tx.payment.findFirst({ where: { merchantId: batch.merchantId, id: item.paymentId, acquirerName: item.source.acquirer.name }, select })
      : null);
  // Whose dispute ids these are: the payment's acquirer key, as the dispute's workflow derives it; else the reporting source's.
  const disputeId = disputeIdOf(
    acquirerKeyOf(payment ?? { acquirerAccountId: item.source.accountId, acquirerName: item.source.acquirer.name }),
    acquirerDisputeId,
  );
  const bookingRef = item.bookingRef ?? type;
  if (await isRecorded(tx, { type, disputeId, bookingRef, occurredAt: new Date(item.occurredAt) })) return;
  const fee = new Decimal(item.feeAmount);
  await tx.settlementLine.create({
    data: {
      batchId: batch.id,
      type,
      paymentId: payment?.id ?? null,
      disputeId,
      acquirerDisputeId,
      bookingRef,
      acquirerRef: item.acquirerRef,
      pspReference: payment?.pspReference ?? item.pspReference ?? null,
      reference: payment?.reference ?? item.reference ?? null,
      amount: item.amount,
      feeAmount: fee.toFixed(),
      netAmount: chargebackNet(type, item.amount, fee),
      currency: item.currency,
      occurredAt: new Date(item.occurredAt),
      reported: true,
      acquirerAccountId: item.source.accountId,
    },
  });
}

/**
 * Whether this booking has its line already: by its key, or, for a line recorded before bookings
 * had keys (migration 0027 gave those their type as key), by the same type and booking time, so a
 * report read again after the upgrade does not record that booking a second time.
 */
async function isRecorded(tx: Db, b: { type: string; disputeId: string; bookingRef: string; occurredAt: Date }): Promise<boolean> {
  const line = await tx.settlementLine.findFirst({
    where: {
      disputeId: b.disputeId,
      type: { in: ['CHARGEBACK', 'CHARGEBACK_REVERSAL'] },
      OR: [{ bookingRef: b.bookingRef }, { type: b.type, bookingRef: b.type, occurredAt: b.occurredAt }],
    },
    select: { id: true },
  });
  return line !== null;
}

const pendingCount = (db: Db, batchId: string) => db.settlementLine.count({ where: { batchId, type: 'PAYMENT', reported: true, appliedAt: null } });

/**
 * A payment the acquirer settled that the service never saw (taken on the device offline):
 * recorded as a payment of the terminal whose device reported it, in the sandbox's test mode,
 * SETTLED, origin SETTLEMENT_REPORT, with one SETTLED history entry. It has no bill to void.
 */
async function recordReportOnlyPayment(
  tx: Db,
  source: ReportSource,
  batch: { id: string; merchantId: string; storeId: string | null; storeExternalId: string; mode: string },
  item: ReportedItem,
): Promise<string> {
  const acquirerName = source.acquirer.name;
  const terminal =
    (await tx.terminal.findFirst({ where: { storeId: batch.storeId ?? undefined, deviceId: item.deviceId } })) ??
    (await tx.terminal.findFirst({ where: { storeId: batch.storeId ?? undefined }, orderBy: { createdAt: 'asc' } }));
  const id = crypto.randomUUID();
  const at = new Date(item.occurredAt);
  const settledAt = new Date();
  await tx.payment.create({
    data: {
      id,
      merchantId: batch.merchantId,
      storeId: batch.storeId,
      terminalId: terminal?.id ?? null,
      storeExternalId: batch.storeExternalId,
      terminalExternalId: terminal?.externalId ?? '',
      deviceId: item.deviceId,
      // An account's report is of its own mode (the batch's); the installation's sandbox takes test payments.
      mode: source.accountId ? batch.mode : acquirerName === 'sandbox' ? 'test' : 'live',
      pspReference: newPspReference(),
      status: 'SETTLED',
      amount: item.amount,
      capturedAmount: item.amount,
      currency: item.currency,
      reference: item.reference ?? null,
      requestedModes: [item.paymentMethod ?? 'CARD'],
      paymentMethod: item.paymentMethod ?? 'CARD',
      cardBrand: item.cardBrand ?? null,
      last4: item.last4 ?? null,
      acquirerName,
      acquirerAccountId: source.accountId,
      routeRule: source.accountId ? null : 'installation',
      acquirerRef: item.acquirerRef,
      origin: 'SETTLEMENT_REPORT',
      terminalTimeoutMinutes: 0,
      workflowId: paymentWorkflowId(id),
      historySequence: 1,
      expiresAt: at,
      capturedAt: at,
      settledAt,
      createdAt: settledAt,
    },
  });
  await tx.paymentHistory.create({
    data: {
      paymentId: id,
      sequence: 1,
      status: 'SETTLED',
      previousStatus: null,
      actionReference: `SETTLE-${batch.id}`,
      source: 'WORKFLOW',
      occurredAt: settledAt,
    },
  });
  return id;
}

/**
 * The final status once every payment is settled: DISCREPANCY when anything did not match. The
 * close's audit entry (docs/settlement.md, "Closing a batch") commits with it, so each close is audited once:
 * by the user who closed, or by the service (actor SYSTEM) for the daily close.
 */
export async function finishBatch(db: Db, batchId: string): Promise<string> {
  const batch = await db.settlementBatch.findUniqueOrThrow({ where: { id: batchId }, include: { _count: { select: { discrepancies: true } } } });
  if (batch.status !== 'SETTLING') return batch.status;
  const status = batch._count.discrepancies > 0 ? 'DISCREPANCY' : 'SETTLED';
  const user = batch.closedBy === SYSTEM_CLOSER ? null : await db.user.findUnique({ where: { username: batch.closedBy }, select: { id: true } });
  await db.$transaction(async (tx) => {
    const { count } = await tx.settlementBatch.updateMany({ where: { id: batchId, status: 'SETTLING' }, data: { status } });
    if (count === 0) return;
    await audit(tx, {
      merchantId: batch.merchantId,
      actor: batch.closedBy === SYSTEM_CLOSER ? { type: 'SYSTEM', id: 'settlement-auto-close' } : { type: 'USER', id: user?.id ?? null },
      action: 'SETTLEMENT_CLOSED',
      target: { type: 'SETTLEMENT', id: batchId },
      details: {
        storeExternalId: batch.storeExternalId,
        date: batch.date,
        mode: batch.mode,
        status,
        closedBy: batch.closedBy,
        totals: batch.totals,
        discrepancies: batch._count.discrepancies,
      },
    });
  });
  return status;
}
