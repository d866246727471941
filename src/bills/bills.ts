import crypto from 'node:crypto';
import Decimal from 'decimal.js';
import type { ApiKeyPrincipal } from '../auth/principal';
import type { KeyMode } from '../auth/apiKeys';
import { type AuditSource, auditFor } from '../audit/audit';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/client';
import { conflict, notFound, unavailable } from '../domain/errors';
import { listArgs } from '../domain/listQuery';
import { type Page, pageOf } from '../domain/paging';
import type { Logger } from '../logger';
import { checkAmount } from '../payments/operations';
import { billWorkflowId, cancelBillUpdate, recordTillTenderUpdate } from '../../core/bill/messages';
import { type BillRecord, type BillRow, toBillRecord } from './record';
import type { BillListQuery, CreateBillBody, TillTenderBody } from './schemas';
import { askBill, type BillCallDeps, refusalError, startBillWorkflow } from './workflowCalls';
import { repeatedTillTender } from '../../core/bill/tenders';
import { referenceTaken } from '../../core/bill/transition';

/**
 * Bills over the API key (docs/bills.md): create, read, list, a tender taken at the till, cancel.
 * The API writes a bill's row once, at creation; after that its workflow is the one writer.
 */
export interface BillDeps extends BillCallDeps {
  db: Db;
  logger: Logger;
}

const NOT_FINAL = ['OPEN', 'CANCELLING'];
const withTenders = { tenders: true } as const;

export interface CreatedBill {
  bill: BillRecord;
  /** True when the open bill with the same reference was returned. */
  replayed: boolean;
}

export async function createBill(deps: BillDeps, principal: ApiKeyPrincipal, body: CreateBillBody): Promise<CreatedBill> {
  const { db, config } = deps;
  if (body.merchantExternalId !== principal.merchantExternalId) throw notFound('merchant');
  const store = await db.store.findFirst({ where: { merchantId: principal.merchantId, externalId: body.storeExternalId, mode: principal.mode } });
  if (!store) throw notFound('store');
  const currency = body.currency.toUpperCase();
  const amount = checkAmount(body.amount, currency);
  const key = { merchantId: principal.merchantId, storeExternalId: store.externalId, mode: principal.mode, reference: body.reference };

  const same = async (): Promise<CreatedBill | undefined> => {
    const open = await db.bill.findFirst({ where: { ...key, status: { in: NOT_FINAL } }, include: withTenders });
    if (!open) return undefined;
    if (!new Decimal(open.amount.toFixed()).eq(amount) || open.currency !== currency) {
      throw conflict(
        `reference: bill ${open.id} with this reference is ${open.status} for ${open.amount.toFixed()} ${open.currency}; a new bill needs another reference`,
      );
    }
    await start(deps, open);
    return { bill: toBillRecord(open), replayed: true };
  };
  const found = await same();
  if (found) return found;

  const id = crypto.randomUUID();
  const timeoutMinutes = body.timeoutMinutes ?? config.BILL_TIMEOUT_MINUTES;
  const now = new Date();
  try {
    const bill = await db.bill.create({
      data: {
        id,
        ...key,
        storeId: store.id,
        amount,
        currency,
        status: 'OPEN',
        timeoutMinutes,
        expiresAt: new Date(now.getTime() + timeoutMinutes * 60_000),
        workflowId: billWorkflowId(id),
        createdAt: now,
        updatedAt: now,
      },
      include: withTenders,
    });
    await start(deps, bill);
    return { bill: toBillRecord(bill), replayed: false };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const raced = await same(); // another till created it at the same moment
    if (raced) return raced;
    throw err;
  }
}

async function start(deps: BillDeps, bill: BillRow): Promise<void> {
  try {
    await startBillWorkflow(deps, bill);
  } catch (err) {
    deps.logger.error({ err, billId: bill.id }, 'bill workflow could not be started');
    throw unavailable(`bill ${bill.id} was accepted but its workflow could not be started yet; retry with the same reference`, 2);
  }
}

/**
 * Whose bills a caller reads, as for payments (PaymentScope): an API key its business's bills of its
 * own mode, a dashboard user its business's bills of both modes (no `mode`).
 */
export interface BillScope {
  merchantId: string;
  mode?: KeyMode;
}

const scopeWhere = (scope: BillScope) => ({ merchantId: scope.merchantId, ...(scope.mode ? { mode: scope.mode } : {}) });

/** A bill of the caller's business (and an API key's mode); another business's is not found (404). */
export async function findOwnBill(db: Db, scope: BillScope, id: string): Promise<BillRow> {
  const bill = await db.bill.findFirst({ where: { id, ...scopeWhere(scope) }, include: withTenders });
  if (!bill) throw notFound('bill');
  return bill;
}

/** One page of the caller's bills, newest first, optionally of one store or status; each row as `view` shows it. */
export async function listBills<T>(db: Db, scope: BillScope, query: BillListQuery, view: (row: BillRow) => T): Promise<Page<T>> {
  const where = {
    ...scopeWhere(scope),
    ...(query.storeExternalId ? { storeExternalId: query.storeExternalId } : {}),
    ...(query.status ? { status: query.status } : {}),
  };
  const [rows, total] = await Promise.all([db.bill.findMany({ where, include: withTenders, ...listArgs('createdAt', query) }), db.bill.count({ where })]);
  return pageOf(rows.map(view), total, query);
}

/** Cash or another tender the till took itself: counted toward the bill at once (201 with the bill). */
export async function addTillTender(deps: BillDeps, principal: ApiKeyPrincipal, source: AuditSource, id: string, body: TillTenderBody): Promise<BillRecord> {
  const bill = await findOwnBill(deps.db, principal, id);
  const amount = checkAmount(body.amount, bill.currency);
  // The same reference again (a retry after a lost answer) is the tender already recorded, whatever the bill became since.
  const repeat = repeatedTillTender(bill.tenders, { method: body.method, amount, reference: body.reference ?? null });
  if (repeat) {
    if (!repeat.same) throw refusalError(referenceTaken(body.reference!));
    return toBillRecord(bill);
  }
  if (bill.status !== 'OPEN') throw conflict(`the bill is ${bill.status}, not OPEN`);
  const answered = await askBill(deps, bill.id, (h, updateId) =>
    h.executeUpdate(recordTillTenderUpdate, { updateId, args: [{ method: body.method, amount, reference: body.reference ?? null }] }),
  );
  if (!answered) throw conflict(`the bill is ${(await findOwnBill(deps.db, principal, id)).status}, not OPEN`);
  await auditFor(deps.db, source, {
    action: 'BILL_TENDER_RECORDED',
    target: { type: 'bill', id: bill.id },
    details: { method: body.method, amount, reference: body.reference ?? null },
  });
  return toBillRecord(await findOwnBill(deps.db, principal, id));
}

/** Give the bill back (202 with the bill CANCELLING); a bill that is not OPEN: 409. */
export async function cancelBill(deps: BillDeps, principal: ApiKeyPrincipal, source: AuditSource, id: string): Promise<BillRecord> {
  const bill = await findOwnBill(deps.db, principal, id);
  if (bill.status !== 'OPEN') throw conflict(`the bill is ${bill.status}, not OPEN`);
  // Audited before the workflow hears it: the give-back moves money.
  await auditFor(deps.db, source, { action: 'BILL_CANCEL_REQUESTED', target: { type: 'bill', id: bill.id }, details: { reference: bill.reference } });
  const answered = await askBill(deps, bill.id, (h, updateId) => h.executeUpdate(cancelBillUpdate, { updateId }));
  if (!answered) throw conflict(`the bill is ${(await findOwnBill(deps.db, principal, id)).status}, not OPEN`);
  return toBillRecord(await findOwnBill(deps.db, principal, id));
}
