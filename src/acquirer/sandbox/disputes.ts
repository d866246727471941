import { randomBytes } from 'node:crypto';
import Decimal from 'decimal.js';
import type { AcquirerDispute, DisputeEvidence } from '../port';
import type { SandboxDispute, SandboxStore } from './state';

/**
 * Disputes in the sandbox (docs/disputes.md, "The sandbox"): the control endpoint plays the cardholder's bank and
 * opens one on a captured bill; the acquirer API lets the service read it, submit evidence or
 * accept it; the scheme decides a submitted dispute with the device's `disputeOutcome` after its
 * `disputeDecisionDelayMs`, computed from stored times (so it holds across a restart).
 */
export class DisputeError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface OpenDisputeRequest {
  reason?: AcquirerDispute['reason'];
  amount?: string;
  respondWithinHours?: number;
  /** false: the service is not told (a notification lost on its way); default true. */
  notify?: boolean;
}

type Emit = (e: { deviceId: string; acquirerRef: string; event: 'DISPUTE_OPENED' | 'DISPUTE_DECIDED'; disputeId: string }) => void;

export function openDispute(store: SandboxStore, emit: Emit, pspReference: string, req: OpenDisputeRequest, now = Date.now()): SandboxDispute {
  const bill = store.billByPspReference(pspReference);
  if (!bill) throw new DisputeError(404, `no bill with pspReference ${pspReference}`);
  if (bill.state !== 'CAPTURED' || bill.voided)
    throw new DisputeError(409, `only a captured bill can be disputed; this one is ${bill.voided ? 'voided' : bill.state}`);
  const captured = new Decimal(bill.capturedAmount ?? bill.amount);
  const amount = req.amount === undefined ? captured : new Decimal(req.amount);
  if (amount.gt(captured)) throw new DisputeError(409, `amount: ${amount.toFixed()} is more than the captured ${captured.toFixed()}`);
  const dispute: SandboxDispute = {
    disputeId: `dp_${randomBytes(12).toString('hex')}`,
    acquirerRef: bill.acquirerRef,
    deviceId: bill.deviceId,
    merchantAccountId: bill.merchantAccountId,
    paymentId: bill.paymentId,
    pspReference: bill.pspReference,
    status: 'NEEDS_RESPONSE',
    reason: req.reason ?? 'FRAUD',
    amount: amount.toFixed(),
    currency: bill.currency,
    openedAt: new Date(now).toISOString(),
    dueBy: new Date(now + Math.round((req.respondWithinHours ?? 168) * 3_600_000)).toISOString(),
  };
  store.addDispute(dispute);
  if (req.notify !== false) emit({ deviceId: dispute.deviceId, acquirerRef: dispute.acquirerRef, event: 'DISPUTE_OPENED', disputeId: dispute.disputeId });
  return dispute;
}

export function deviceDispute(store: SandboxStore, deviceId: string, disputeId: string): SandboxDispute {
  const d = store.dispute(disputeId);
  if (!d || d.deviceId !== deviceId) throw new DisputeError(404, `no dispute ${disputeId} on device ${deviceId}`);
  return d;
}

/** The merchant's evidence: UNDER_REVIEW, decided later as the device says; a repeat answers the dispute as it stands. */
export function submitEvidence(store: SandboxStore, d: SandboxDispute, evidence: DisputeEvidence, now = Date.now()): SandboxDispute {
  if (d.submittedAt) return d;
  if (d.status !== 'NEEDS_RESPONSE') throw new DisputeError(409, `evidence not accepted: the dispute is ${d.status}`);
  if (now >= Date.parse(d.dueBy)) throw new DisputeError(409, `evidence not accepted: the response was due by ${d.dueBy}`);
  const device = store.deviceOrDefault(d.deviceId);
  d.status = 'UNDER_REVIEW';
  d.submittedAt = new Date(now).toISOString();
  d.evidence = evidence;
  d.outcome = device.disputeOutcome;
  d.decideAt = new Date(now + device.disputeDecisionDelayMs).toISOString();
  return d;
}

/** The merchant accepts: ACCEPTED at once; a repeat answers the accepted dispute. */
export function acceptDispute(d: SandboxDispute, now = Date.now()): SandboxDispute {
  if (d.status === 'ACCEPTED') return d;
  if (d.status !== 'NEEDS_RESPONSE') throw new DisputeError(409, `acceptance not possible: the dispute is ${d.status}`);
  if (now >= Date.parse(d.dueBy)) throw new DisputeError(409, `acceptance not possible: the response was due by ${d.dueBy}`);
  d.status = 'ACCEPTED';
  d.closedAt = new Date(now).toISOString();
  return d;
}

/** Decides the submitted disputes that are due; answers those it changed. */
export function decideDueDisputes(store: SandboxStore, emit: Emit, now: number): SandboxDispute[] {
  const changed: SandboxDispute[] = [];
  for (const d of store.disputesUnderReview()) {
    if (!d.decideAt || now < Date.parse(d.decideAt)) continue;
    d.status = d.outcome ?? 'WON';
    d.closedAt = d.decideAt;
    emit({ deviceId: d.deviceId, acquirerRef: d.acquirerRef, event: 'DISPUTE_DECIDED', disputeId: d.disputeId });
    changed.push(d);
  }
  return changed;
}

/** The dispute as the acquirer API answers it. */
export function disputeView(d: SandboxDispute): AcquirerDispute {
  return {
    disputeId: d.disputeId,
    acquirerRef: d.acquirerRef,
    status: d.status,
    reason: d.reason,
    amount: d.amount,
    currency: d.currency,
    openedAt: d.openedAt,
    dueBy: d.dueBy,
  };
}

/** The control view: the acquirer's fields plus where it is and what was submitted. */
export function disputeControlView(d: SandboxDispute) {
  return {
    ...disputeView(d),
    pspReference: d.pspReference,
    paymentId: d.paymentId,
    merchantAccountId: d.merchantAccountId,
    submittedAt: d.submittedAt ?? null,
    evidence: d.evidence ?? null,
  };
}
