import crypto from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { Acquirers } from '../acquirer/acquirers';
import type { AcquirerResolver } from '../acquirer/resolver';
import { type AcquirerPort, AcquirerRejectedError, AcquirerUnreachableError, type PaymentMode } from '../acquirer/port';
import { routedMode } from '../acquirerAccounts/decision';
import type { ApiKeyPrincipal } from '../auth/principal';
import type { Config } from '../config';
import { type Db, isUniqueViolation } from '../db/client';
import type { Payment, Prisma } from '../generated/prisma/client';

import { conflict, DomainError, invalid, notFound, unavailable } from '../domain/errors';
import type { Logger } from '../logger';
import { paymentStatusEvents } from '../observability/metrics';
import { isTerminalReady } from '../stores/serializers';
import { rowAfterPlacement } from './projectedRow';
import { paymentWorkflowId } from '../../core/payment/messages';
import { OPEN_STATUSES, ON_DEVICE_STATUSES } from '../../core/payment/statuses';
import type { TipOffer } from '../../core/acquirer';
import { readForCreate, type TillRow, type TillStore, type TillTerminal } from './createReads';
import { newPspReference } from './pspReference';
import { routePayment, type ChosenRoute } from './route';
import type { CreatePaymentBody } from './schemas';
import { callPaymentWorkflow } from './workflowCalls';
import { holdTender, tenderCreated } from '../bills/tenders';

/**
 * Creating a payment (docs/payments.md, "Creation body"). Checks in this order, writing nothing before the last:
 * body (400), business (404), store and terminal (404), terminal ready (409), an open payment with
 * the same reference (returned as it is: idempotency), requested modes against the device (400),
 * inactive store or terminal (201 REFUSED). Then the row is inserted (CREATED) and its workflow
 * started by update-with-start; the answer comes once the bill is on the device or refused.
 *
 * The partial unique indexes decide races across API processes: a second open payment with the
 * same reference, or a second bill on the terminal, cannot be inserted. The loser of a reference
 * race gets the winner's payment; the loser of a terminal race gets a REFUSED payment.
 */
export interface CreateDeps {
  config: Config;
  db: Db;
  acquirers: Acquirers;
  temporal: Client;
  logger: Logger;
  /** The API process's resolver: it learns who took each payment placed here (acquirer notifications read less). */
  resolver?: AcquirerResolver;
}

export interface CreateResult {
  payment: Payment;
  /** True when an open payment with the same reference was returned instead of creating one. */
  replayed: boolean;
}

export async function createPayment(deps: CreateDeps, principal: ApiKeyPrincipal, body: CreatePaymentBody): Promise<CreateResult> {
  const { config, db } = deps;
  const timeoutMinutes = body.terminalTimeoutMinutes ?? config.TERMINAL_TIMEOUT_DEFAULT_MINUTES;
  if (timeoutMinutes < config.TERMINAL_TIMEOUT_MIN_MINUTES || timeoutMinutes > config.TERMINAL_TIMEOUT_MAX_MINUTES) {
    throw invalid(`terminalTimeoutMinutes: must be between ${config.TERMINAL_TIMEOUT_MIN_MINUTES} and ${config.TERMINAL_TIMEOUT_MAX_MINUTES} minutes`);
  }
  if (body.merchantExternalId !== principal.merchantExternalId) throw notFound('merchant');
  const currency = body.currency.toUpperCase();
  const reference = body.reference ?? null;
  const sequenceNumber = body.sequenceNumber ?? null;
  const sameBill = { merchantId: principal.merchantId, mode: principal.mode, reference, sequenceNumber };

  // The key's own mode only: a test key cannot reach a live store's terminal (and its open bill), nor the other way round.
  // Terminal and store, an open payment with the reference, and the routes in one statement; only a miss asks which of the two is unknown.
  const reads = await readForCreate(db, principal, body, sameBill);
  if (!reads) {
    const store = await db.store.findFirst({ where: { merchantId: principal.merchantId, externalId: body.storeExternalId, mode: principal.mode } });
    throw notFound(store ? 'terminal' : 'store');
  }
  const found = reads.till;
  const terminal: TillTerminal = { id: found.id, externalId: found.externalId, deviceId: found.deviceId, twoStep: found.twoStep, status: found.status };
  const store: TillStore = { id: found.storeId, externalId: found.storeExternalId, status: found.storeStatus };
  if (!isTerminalReady(terminal)) {
    throw conflict(`terminal ${terminal.externalId} is not ready to take payments: its device link is not configured`);
  }
  const tipOffer = tipOfferOf(body, found);

  if (reads.openWithReference !== null) {
    // Read whole only when there is one: the answer is the row as it is now.
    const open = await findOpenWithReference(db, sameBill);
    if (open) return replay(deps, open, principal);
  }
  const route = await routePayment(
    deps,
    principal,
    { storeExternalId: store.externalId, currency, paymentMode: routedMode(body.requestedModes), amount: body.amount.toString() },
    reads.routes,
  );
  const acquirer = route.acquirer;
  // An account's acquirer must know the device; the installation default was checked when the terminal was linked.
  if (route.account || body.requestedModes) await checkDevice(acquirer, terminal, route, body.requestedModes);

  const inactive = inactiveReason(store, terminal);
  const now = new Date();
  const id = crypto.randomUUID();
  const pspReference = newPspReference();
  const row: NewPaymentRow = {
    id,
    merchantId: principal.merchantId,
    storeId: store.id,
    terminalId: terminal.id,
    storeExternalId: store.externalId,
    terminalExternalId: terminal.externalId,
    deviceId: terminal.deviceId,
    mode: principal.mode,
    pspReference,
    amount: body.amount.toString(),
    currency,
    reference,
    sequenceNumber,
    allowPartialAuthorisation: body.allowPartialAuthorisation ?? allowsPartialAuthorisationByDefault(body),
    // A tip the POS knows is charged from the start; an asked one arrives with the acquirer's approval (docs/tips.md).
    tipAmount: (body.tipAmount ?? 0).toString(),
    ...(tipOffer ? { tipOffer: { ...tipOffer } } : {}),
    requestedModes: body.requestedModes ?? [],
    // One requested mode is the tender from the start; an open choice starts as CARD and is corrected after payment.
    paymentMethod: body.requestedModes?.length === 1 ? body.requestedModes[0] : 'CARD',
    acquirerName: acquirer.name,
    acquirerAccountId: route.account?.id ?? null,
    routeRule: route.rule,
    origin: 'PLATFORM',
    // Only a terminal linked two-step authorises (docs/payments.md, "Two-step completion"); fixed at creation like the device.
    twoStep: terminal.twoStep,
    terminalTimeoutMinutes: timeoutMinutes.toString(),
    cashierId: body.cashierId ?? null,
    customerMobile: body.customerMobile ?? null,
    customerEmail: body.customerEmail ?? null,
    workflowId: paymentWorkflowId(id),
    createdAt: now,
    updatedAt: now,
  };

  if (body.billId) {
    if (reference !== null) {
      const open = await db.payment.findFirst({
        where: { merchantId: principal.merchantId, mode: principal.mode, billId: body.billId, reference, status: { in: [...OPEN_STATUSES] } },
      });
      if (open) return replay(deps, open, principal);
    }
    const tender = await holdTender(deps, principal, body.billId, {
      paymentId: id,
      amount: row.amount as string,
      currency,
      storeExternalId: store.externalId,
      ...(body.sequenceNumber !== undefined ? { sequenceNumber: body.sequenceNumber } : {}),
    }).catch(async (err: unknown) => {
      // The hold may have reached the bill before Temporal stopped answering: the nudge frees it (no payment row).
      if (err instanceof DomainError && err.kind === 'unavailable') await tenderCreated(deps, body.billId!, id);
      throw err;
    });
    row.billId = body.billId;
    row.sequenceNumber = tender.sequenceNumber;
    // Whatever becomes of the creation, the bill reads the payment's row after it (none: the hold is freed).
    try {
      return await insertAndPlace(deps, principal, row, inactive, now, timeoutMinutes, { reference, sameBill, terminal });
    } finally {
      await tenderCreated(deps, body.billId, id);
    }
  }
  return insertAndPlace(deps, principal, row, inactive, now, timeoutMinutes, { reference, sameBill, terminal });
}

/** Inserts the payment (REFUSED at once for an inactive store or terminal) and places its bill on the device. */
async function insertAndPlace(
  deps: CreateDeps,
  principal: ApiKeyPrincipal,
  row: NewPaymentRow,
  inactive: string | null,
  now: Date,
  timeoutMinutes: number,
  { reference, sameBill, terminal }: { reference: string | null; sameBill: Parameters<typeof findOpenWithReference>[1]; terminal: TillTerminal },
): Promise<CreateResult> {
  const { config, db } = deps;
  if (inactive) return { payment: await insertRefused(db, row, inactive, now), replayed: false };

  const expiresAt = new Date(now.getTime() + Math.round(timeoutMinutes * 60_000) + Math.round(config.EXPIRY_GRACE_SECONDS * 1000));
  for (let attempt = 0; ; attempt++) {
    try {
      const payment = await db.payment.create({ data: { ...row, status: 'CREATED', expiresAt } });
      return { payment: await placeBill(deps, payment, principal), replayed: false };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // Another open payment holds the reference or the terminal: find out which.
      if (reference !== null) {
        const open = await findOpenWithReference(db, sameBill);
        if (open) return replay(deps, open, principal);
      }
      const busy = await db.payment.findFirst({
        where: { terminalExternalId: terminal.externalId, mode: principal.mode, status: { in: [...ON_DEVICE_STATUSES] } },
      });
      if (busy) {
        const other = busy.reference ? ` (reference ${busy.reference})` : '';
        return { payment: await insertRefused(db, row, `another bill${other} is open on terminal ${terminal.externalId}`, now), replayed: false };
      }
      // The conflicting payment was decided meanwhile: try again.
      if (attempt >= 3) throw unavailable('the terminal is busy with concurrent payments; retry with the same reference');
    }
  }
}

/**
 * `tip: "ASK"`: the store's options the terminal offers, fixed at creation (docs/tips.md); 400
 * naming `tip` where the store does not take tips. Null when the payment does not ask.
 */
function tipOfferOf(body: CreatePaymentBody, store: TillRow): TipOffer | null {
  if (body.tip !== 'ASK') return null;
  if (!store.tippingEnabled) throw invalid(`tip: store ${store.storeExternalId} does not take tips (its tipping is off)`);
  return { percentages: store.tipPercentages, allowCustom: store.tipAllowCustom };
}

/**
 * Whether a payment allows partial authorisation when its request does not say: a tender of a bill
 * does (docs/bills.md), any other payment does not.
 */
export function allowsPartialAuthorisationByDefault(body: CreatePaymentBody): boolean {
  return body.billId !== undefined;
}

function findOpenWithReference(db: Db, key: { merchantId: string; mode: string; reference: string | null; sequenceNumber: number | null }) {
  return db.payment.findFirst({ where: { ...key, status: { in: [...OPEN_STATUSES] } } });
}

/** Idempotency: the open payment with this reference, as it is (a CREATED one is driven to the device first). */
async function replay(deps: CreateDeps, open: Payment, principal: ApiKeyPrincipal): Promise<CreateResult> {
  if (open.status !== 'CREATED') return { payment: open, replayed: true };
  return { payment: await placeBill(deps, open, principal), replayed: true };
}

/**
 * Starts (or reaches) the workflow with the placeBill update and answers once the bill is on the
 * device or refused. When the acquirer gives no answer within PAYMENT_PLACEMENT_WAIT_SECONDS the
 * payment stays open (CREATED) and is answered 503: a retry with the same reference returns it.
 */
async function placeBill(deps: CreateDeps, payment: Payment, principal: ApiKeyPrincipal): Promise<Payment> {
  let answer;
  try {
    answer = await callPaymentWorkflow(deps, payment, principal.merchantExternalId, 'placeBill', []);
  } catch (err) {
    deps.logger.error({ err, paymentId: payment.id }, 'payment workflow could not be reached');
    throw unavailable(`payment ${payment.id} was accepted but could not be sent to the device yet; retry with the same reference`, 2);
  }
  // The placement's own answer carries what its projection wrote: the row is not read again (docs/payments.md, "Creating a payment").
  const placed = answer.kind === 'outcome' && answer.outcome.placed ? { ...answer.outcome.placed, sequence: answer.outcome.sequence } : undefined;
  const current = placed ? rowAfterPlacement(payment, placed) : await deps.db.payment.findUniqueOrThrow({ where: { id: payment.id } });
  if (current.acquirerName) {
    const bill = current.deviceId && current.acquirerRef ? { deviceId: current.deviceId, acquirerRef: current.acquirerRef } : null;
    deps.resolver?.created(current.id, { acquirerName: current.acquirerName, acquirerAccountId: current.acquirerAccountId }, bill);
  }
  if (current.status === 'CREATED' && answer.kind === 'outcome') {
    throw unavailable(
      `the acquirer did not confirm the bill on the device in time; payment ${payment.id} stays open and is either placed or failed; retry with the same reference`,
      2,
    );
  }
  return current;
}

/** The device as the chosen acquirer knows it: 409 when an account's acquirer does not know it, 400 when it lacks a requested mode. */
async function checkDevice(acquirer: AcquirerPort, terminal: TillTerminal, route: ChosenRoute, requested: PaymentMode[] | undefined): Promise<void> {
  let offered: PaymentMode[];
  try {
    offered = (await acquirer.getDevice(terminal.deviceId!)).modes;
  } catch (err) {
    if (err instanceof AcquirerUnreachableError) {
      throw unavailable('the acquirer did not answer while checking the device; nothing was created; retry with the same reference', 2);
    }
    if (err instanceof AcquirerRejectedError && route.account) {
      const account = `acquirer account ${route.account.name} (${route.account.id}), which the ${route.rule} route chose`;
      // An acquirer's refusal is never answered as our own 401 or 404: it is the account that cannot do this.
      throw conflict(
        err.status === 404
          ? `terminal ${terminal.externalId}: its device is not known to ${account}; nothing was created`
          : `terminal ${terminal.externalId}: ${account} was refused by its acquirer (${err.status}: ${err.message}); check its credentials; nothing was created`,
      );
    }
    throw err;
  }
  const missing = (requested ?? []).filter((m) => !offered.includes(m));
  if (missing.length > 0) {
    throw invalid(`requestedModes: the device of terminal ${terminal.externalId} does not offer ${missing.join(', ')}; it offers ${offered.join(', ')}`);
  }
}

function inactiveReason(store: TillStore, terminal: TillTerminal): string | null {
  if (store.status !== 'ACTIVE') return `store ${store.externalId} is inactive`;
  if (terminal.status !== 'ACTIVE') return `terminal ${terminal.externalId} is inactive`;
  return null;
}

/** The payment row's fields common to an open and a refused payment. */
type NewPaymentRow = Omit<Prisma.PaymentUncheckedCreateInput, 'status' | 'expiresAt'> & { id: string; pspReference: string };

/** A payment refused at creation: final at once, one history entry, no bill sent and no workflow. */
async function insertRefused(db: Db, row: NewPaymentRow, refusalReason: string, now: Date): Promise<Payment> {
  const refused = await db.payment.create({
    data: {
      ...row,
      status: 'REFUSED',
      refusalReason,
      expiresAt: now,
      historySequence: 1,
      history: {
        create: [{ sequence: 1, status: 'REFUSED', previousStatus: null, actionReference: `CREATE-${row.pspReference}`, source: 'API', occurredAt: now }],
      },
    },
  });
  // No workflow projects this status event, so it is counted here.
  paymentStatusEvents.inc({ status: 'REFUSED' });
  return refused;
}
