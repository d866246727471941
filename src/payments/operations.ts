import type { Client } from '@temporalio/client';
import { resolverOf } from '../acquirer/resolver';
import type { Acquirers } from '../acquirer/acquirers';
import { AcquirerRejectedError, AcquirerUnreachableError, type BillState } from '../acquirer/port';
import { acquirerFailureError } from '../acquirer/errors';
import type { KeyMode } from '../auth/apiKeys';
import type { ApiKeyPrincipal } from '../auth/principal';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Payment } from '../generated/prisma/client';
import { conflict, invalid, notFound, unavailable } from '../domain/errors';
import { minorUnitsOf } from '../money/currencies';
import Decimal from 'decimal.js';
import type { Logger } from '../logger';
import { isTerminalReady } from '../stores/serializers';
import { isFinal } from '../../core/payment/statuses';
import { isDisputeOpen } from '../../core/dispute/statuses';
import type { PendingRefund } from '../../core/payment/messages';
import { captureRefusal, voidRefusal } from '../../core/payment/rules';
import { SingleFlight } from './coalesce';
import { chargedBackOf } from '../disputes/chargebacks';
import { factsOf, refusalError } from './facts';
import { callPaymentWorkflow, type PaymentOperation, type PaymentOperationArgs, type WorkflowAnswer } from './workflowCalls';

/**
 * sync-status, cancel and void (docs/payments.md). A final payment is answered from the database
 * without touching the workflow or the acquirer. Everything that changes a payment goes through
 * its workflow (the one writer); the API only reads.
 */
export interface OperationDeps {
  config: Config;
  db: Db;
  acquirers: Acquirers;
  temporal: Client;
  logger: Logger;
}

/**
 * Whose payments a caller reads: an API key its business's payments of its own mode; a dashboard
 * user its business's payments of both modes (mode absent), or of one mode when it narrows.
 */
export interface PaymentScope {
  merchantId: string;
  merchantExternalId?: string;
  mode?: KeyMode;
}

/**
 * The caller's payment: same business and, for an API key, same mode (a test key never sees a
 * live payment). A dashboard user's scope has no mode: it sees both.
 */
export async function findOwnPayment(db: Db, scope: PaymentScope, id: string): Promise<Payment> {
  const payment = await db.payment.findFirst({ where: { id, merchantId: scope.merchantId, ...(scope.mode ? { mode: scope.mode } : {}) } });
  if (!payment) throw notFound('payment');
  return payment;
}

const reread = (db: Db, id: string) => db.payment.findUniqueOrThrow({ where: { id } });

export async function askWorkflow<O extends PaymentOperation>(
  deps: OperationDeps,
  payment: Payment,
  principal: { merchantExternalId: string },
  operation: O,
  args: PaymentOperationArgs[O],
  /** Refund rows still PENDING, for a new run started from the row (refunds only). */
  pendingRefunds: PendingRefund[] = [],
): Promise<WorkflowAnswer> {
  try {
    return await callPaymentWorkflow(deps, payment, principal.merchantExternalId, operation, args, { pendingRefunds });
  } catch (err) {
    deps.logger.error({ err, operation }, 'payment workflow could not be reached'); // the logger names the payment
    throw unavailable('the payment could not be reached right now; retry shortly', 2);
  }
}

// ---- sync-status ----

const syncFlights = new SingleFlight<Payment>();

/** What the acquirer says that the projection already shows: no need to involve the workflow. */
function alreadyShown(status: string, bill: BillState): boolean {
  return (status === 'AWAITING_TERMINAL' && bill === 'WAITING') || (status === 'AUTHORIZED' && bill === 'AUTHORIZED');
}

/**
 * Refreshes from the acquirer first. The API reads the bill itself (a read changes nothing) and
 * asks the workflow to re-read and apply only when the acquirer says something the projection does
 * not show yet: polling a waiting bill costs no workflow history. Concurrent calls share one read.
 */
export async function syncStatus(deps: OperationDeps, principal: ApiKeyPrincipal, id: string): Promise<Payment> {
  const payment = await findOwnPayment(deps.db, principal, id);
  if (isFinal(payment.status)) return payment; // final states never change
  return syncFlights.run(payment.id, async () => {
    if (payment.status !== 'CREATED' && payment.acquirerRef && payment.deviceId) {
      let state: BillState;
      try {
        state = (await (await resolverOf(deps).ofRecord(payment)).getBillStatus(payment.deviceId, payment.acquirerRef)).state;
      } catch (err) {
        // No answer: nothing new can be learned now; the payment is answered as it was just read.
        if (err instanceof AcquirerUnreachableError || err instanceof AcquirerRejectedError) return payment;
        throw err;
      }
      // The acquirer agrees with the row read just before it: that row is the answer (no second read per poll).
      if (alreadyShown(payment.status, state)) return payment;
    }
    await askWorkflow(deps, payment, principal, 'syncStatus', []);
    return reread(deps.db, payment.id);
  });
}

// ---- cancel ----

/**
 * Withdraws a bill still waiting at the terminal, or releases a two-step authorisation
 * (docs/payments.md, "Two-step completion"). 409 when the payment is already decided (a final
 * status); 200 with the resulting payment otherwise: CANCELLED, CAPTURED when the customer
 * completed first, or unchanged (AWAITING_TERMINAL, AUTHORIZED) when the acquirer could not be
 * reached.
 */
export async function cancelPayment(deps: OperationDeps, principal: ApiKeyPrincipal, id: string): Promise<Payment> {
  const payment = await findOwnPayment(deps.db, principal, id);
  if (isFinal(payment.status)) throw conflict(`payment already decided: it is ${payment.status}`);
  const answer = await askWorkflow(deps, payment, principal, 'cancel', []);
  const current = await reread(deps.db, payment.id);
  // Decided while this call was under way (the acquirer's notification of our own withdrawal can
  // reach the workflow before this update does): the resulting payment, as when the customer wins.
  if (answer.kind !== 'outcome' && isFinal(current.status)) return current;
  if (answer.kind === 'rejected') throw refusalError(answer);
  if (answer.kind === 'closed') throw conflict(`payment already decided: it is ${current.status}`);
  return current;
}

// ---- capture (two-step completion) ----

/** An amount of the payment's currency: greater than 0, with at most its minor-unit decimals. */
export function checkAmount(amount: number, currency: string, field = 'amount'): string {
  const minor = minorUnitsOf(currency);
  const d = new Decimal(amount.toString());
  if (d.lte(0)) throw invalid(`${field}: must be greater than 0`);
  if (d.decimalPlaces() > minor) throw invalid(`${field}: must have at most ${minor} decimal places for ${currency}`);
  return d.toFixed();
}

/**
 * Completes a two-step authorisation (docs/payments.md, "Two-step completion"): all of it, or part. 200 CAPTURED; 200 still
 * AUTHORIZED when the acquirer could not be reached (the workflow keeps the capture and completes
 * it later); 400 for an amount above the authorised one; 409 for any status but AUTHORIZED.
 */
export async function capturePayment(deps: OperationDeps, principal: ApiKeyPrincipal, id: string, amount: number | undefined): Promise<Payment> {
  const payment = await findOwnPayment(deps.db, principal, id);
  const exact = amount === undefined ? undefined : checkAmount(amount, payment.currency);
  const refusal = captureRefusal(factsOf(payment), {}, exact);
  if (refusal) throw refusalError(refusal);
  const answer = await askWorkflow(deps, payment, principal, 'capture', [exact === undefined ? {} : { amount: exact }]);
  const current = await reread(deps.db, payment.id);
  if (answer.kind === 'rejected') throw refusalError(answer);
  if (answer.kind === 'closed') throw conflict(`capture not permitted: the payment is ${current.status}, not AUTHORIZED`);
  if (answer.outcome.notice === 'CAPTURE_REJECTED') throw conflict(`capture not permitted: ${answer.outcome.message ?? 'the acquirer refused it'}`);
  return current;
}

// ---- void ----

/** The void preconditions (docs/payments.md, "Void"), from the projection: 409, or 404 where store or terminal is gone. */
async function checkVoidPreconditions(deps: OperationDeps, payment: Payment): Promise<void> {
  const refusal = voidRefusal(
    factsOf(payment),
    { disputeOpen: isDisputeOpen(payment.disputeStatus), chargedBack: await chargedBackOf(deps.db, payment.id) },
    { nowMs: Date.now(), voidWindowMs: deps.config.VOID_WINDOW_MINUTES * 60_000 },
  );
  if (refusal) throw refusalError(refusal);
  if (payment.origin !== 'PLATFORM') throw conflict('void not permitted: the payment was not taken through the platform');
  const store = payment.storeId ? await deps.db.store.findUnique({ where: { id: payment.storeId } }) : null;
  if (!store) throw notFound('store');
  const terminal = payment.terminalId ? await deps.db.terminal.findUnique({ where: { id: payment.terminalId } }) : null;
  if (!terminal) throw notFound('terminal');
  if (!isTerminalReady(terminal)) throw conflict(`void not permitted: terminal ${terminal.externalId} is no longer linked to its device`);
  if (!terminal.voidSupported) throw conflict(`void not permitted: terminal ${terminal.externalId} does not support voids`);
  let supported: boolean;
  try {
    supported = (await (await resolverOf(deps).ofRecord(payment)).getDevice(payment.deviceId ?? terminal.deviceId!)).voidSupported;
  } catch (err) {
    // The acquirer's own status is never ours (a 401 or 404 there is not the merchant's): 409 or 503.
    throw acquirerFailureError(err, { prefix: 'void not permitted: ', doing: 'the device check', outcome: 'nothing was submitted' }) ?? err;
  }
  if (!supported) throw conflict('void not permitted: the acquirer does not support voids for this device');
}

/**
 * Submits one reversal (each call a new one). 200 CANCELLED when the acquirer confirms within
 * VOID_CONFIRM_TIMEOUT_SECONDS; 200 CAPTURED when it accepted but has not confirmed (the workflow
 * follows it up); 409 when a precondition fails or the acquirer refuses the reversal.
 */
export async function voidPayment(deps: OperationDeps, principal: ApiKeyPrincipal, id: string): Promise<Payment> {
  const payment = await findOwnPayment(deps.db, principal, id);
  await checkVoidPreconditions(deps, payment);
  const answer = await askWorkflow(deps, payment, principal, 'void', []);
  if (answer.kind === 'rejected') throw refusalError(answer);
  if (answer.kind === 'closed') throw conflict(`void not permitted: the void window of ${deps.config.VOID_WINDOW_MINUTES} minutes from capture has closed`);
  if (answer.outcome.notice === 'VOID_REJECTED')
    throw conflict(`void not permitted: the acquirer refused the reversal${answer.outcome.message ? `: ${answer.outcome.message}` : ''}`);
  return reread(deps.db, payment.id);
}
