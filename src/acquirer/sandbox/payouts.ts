import { randomBytes } from 'node:crypto';
import Decimal from 'decimal.js';
import type { ReportPayout } from '../port';
import type { SandboxReport } from './settlement';
import type { SandboxAccount, SandboxPayout, SandboxStore } from './state';

/**
 * The sandbox's payouts (docs/payouts-and-fees.md, "The sandbox's terms per MID"): after each new settlement report it pays that report's net
 * out to the merchant's bank, one payout per currency (a net of zero or less pays nothing: the
 * debit waits for the next report), IN_TRANSIT at once, then PAID or FAILED as the MID's terms say
 * after `payoutDelayMs`. Each change is notified to the service, only as a nudge to re-read.
 */
export type PayoutEvent = {
  deviceId: string;
  acquirerRef: string;
  event: 'PAYOUT_IN_TRANSIT' | 'PAYOUT_PAID' | 'PAYOUT_FAILED';
  payoutId: string;
  /** The report it pays: the service finds its batch and account by it. */
  batchReference: string;
};

/** What a bank says when it cannot credit the account (the sandbox's failed payouts). */
export const FAILED_PAYOUT_REASON = 'R03: no account or unable to locate account (the bank returned the payout)';

/** Money moved per item type: payments and chargeback reversals in, refunds and chargebacks out; every fee out. */
export function netOf(items: SandboxReport['items']): Map<string, Decimal> {
  const net = new Map<string, Decimal>();
  for (const i of items) {
    const signed = i.type === 'PAYMENT' || (i.type as string) === 'CHARGEBACK_REVERSAL' ? new Decimal(i.amount) : new Decimal(i.amount).negated();
    net.set(i.currency, (net.get(i.currency) ?? new Decimal(0)).plus(signed).minus(i.feeAmount));
  }
  return net;
}

/** The payouts of a new report, stored; the caller saves them and notifies IN_TRANSIT. */
export function payoutsForReport(store: SandboxStore, report: SandboxReport, terms: SandboxAccount, now = new Date()): SandboxPayout[] {
  const made: SandboxPayout[] = [];
  for (const [currency, net] of netOf(report.items)) {
    const amount = net.minus(terms.payoutWithheld ?? '0');
    if (amount.lte(0)) continue;
    const payout: SandboxPayout = {
      payoutId: `po_${randomBytes(12).toString('hex')}`,
      merchantAccountId: report.merchantAccountId,
      deviceId: report.deviceId,
      batchReference: report.batchReference,
      currency,
      amount: amount.toFixed(),
      status: 'IN_TRANSIT',
      createdAt: now.toISOString(),
      decideAt: new Date(now.getTime() + terms.payoutDelayMs).toISOString(),
      outcome: terms.payoutOutcome,
      // The next banking day, as the sandbox sees it: the day after.
      arrivalDate: new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10),
    };
    store.addPayout(payout);
    made.push(payout);
  }
  return made;
}

/** Decides the payouts whose time has come; answers the changed records. */
export function decideDuePayouts(store: SandboxStore, emit: (e: PayoutEvent) => void, now = Date.now()): SandboxPayout[] {
  const changed: SandboxPayout[] = [];
  for (const p of store.payoutsInTransit()) {
    if (now < Date.parse(p.decideAt)) continue;
    p.status = p.outcome;
    if (p.outcome === 'FAILED') p.failureReason = FAILED_PAYOUT_REASON;
    emit(payoutEvent(p));
    changed.push(p);
  }
  return changed;
}

export const payoutEvent = (p: SandboxPayout): PayoutEvent => ({
  deviceId: p.deviceId,
  acquirerRef: p.payoutId,
  event: p.status === 'IN_TRANSIT' ? 'PAYOUT_IN_TRANSIT' : p.status === 'PAID' ? 'PAYOUT_PAID' : 'PAYOUT_FAILED',
  payoutId: p.payoutId,
  batchReference: p.batchReference,
});

/** The sandbox's answer; the adapter adds what kind of payout it is (`pays: REPORT`). */
export function payoutView(p: SandboxPayout): Omit<ReportPayout, 'pays'> {
  return {
    payoutId: p.payoutId,
    batchReference: p.batchReference,
    deviceId: p.deviceId,
    status: p.status,
    amount: p.amount,
    currency: p.currency,
    arrivalDate: p.arrivalDate,
    ...(p.failureReason ? { failureReason: p.failureReason } : {}),
  };
}
