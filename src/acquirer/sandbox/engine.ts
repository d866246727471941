import { randomBytes } from 'node:crypto';
import Decimal from 'decimal.js';
import { minorUnitsOf } from '../../money/currencies';
import type {
  TipOffer,
  BillState,
  BillStatus,
  CompleteAuthorizationRequest,
  DeviceCapabilities,
  PaymentMode,
  RefundRequest,
  RefundStatus,
  SendBillRequest,
  SendBillResult,
  VoidStatus,
  AcquirerDispute,
  DisputeEvidence,
} from '../port';
import {
  acceptDispute,
  decideDueDisputes,
  deviceDispute,
  disputeControlView,
  disputeView,
  type OpenDisputeRequest,
  openDispute,
  submitEvidence,
} from './disputes';
import { decideDuePayouts, type PayoutEvent, payoutEvent, payoutsForReport, payoutView } from './payouts';
import { closeDeviceBatch, type OfflinePayment, recordOfflinePayment, type SandboxReport } from './settlement';
import {
  type Bill,
  type Device,
  type DeviceSettings,
  type Reversal,
  SANDBOX_MID,
  type SandboxAccount,
  type SandboxPayout,
  type SandboxRefund,
  SandboxStore,
  type StateRecord,
} from './state';

/**
 * What the sandbox acquirer does, free of HTTP: the bill on each device, the customer's actions,
 * the device's own timeout, and reversals. Time-based changes (device timeout, delayed void
 * confirmation) are computed from stored timestamps on every access (settle), so they hold across
 * a restart; the server's timer only calls settle early so that notifications go out on time.
 */
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Sent to the service's notification endpoint: only a nudge to re-read, never the outcome itself. */
export interface SandboxEvent {
  deviceId: string;
  acquirerRef: string;
  event: BillState | 'VOID_CONFIRMED' | 'REFUND_SUCCEEDED' | 'REFUND_FAILED' | 'DISPUTE_OPENED' | 'DISPUTE_DECIDED' | PayoutEvent['event'];
  voidReference?: string;
  refundReference?: string;
  /** The sandbox's id of the dispute a DISPUTE_* event is about. */
  disputeId?: string;
  /** The sandbox's id of the payout a PAYOUT_* event is about, and the report it pays (docs/payouts-and-fees.md). */
  payoutId?: string;
  batchReference?: string;
}

/** `approvedAmount`: the card approves only that much (below the bill's amount: a partial authorisation, or a decline when the bill does not allow one). */
export type CustomerAction =
  | { action: 'pay'; mode?: PaymentMode; cardBrand?: string; last4?: string; approvedAmount?: string; tipAmount?: string }
  | { action: 'decline' | 'cancel' | 'error' };

/** What the sandbox says when a card's balance is below the amount and the payment does not allow a partial authorisation. */
export const INSUFFICIENT_FUNDS = 'insufficient funds';

export interface DeviceView extends DeviceSettings {
  deviceId: string;
  currentBill: BillView | null;
  /** The last bill sent to the device, wherever it ended (shows outcome and `voided`). */
  lastBill: BillView | null;
}
export type BillView = Omit<Bill, 'state'> & { status: BillState };
/** A send under a merchant account (MID); without one, the installation default's books (SANDBOX). */
export type SandboxBillRequest = SendBillRequest & { merchantAccountId?: string };
/** The acquirer API's bill status also names the books the bill is in. */
export type SandboxBillStatus = BillStatus & { merchantAccountId: string };

export class SandboxEngine {
  constructor(
    readonly store: SandboxStore,
    private readonly emit: (e: SandboxEvent) => void,
    private readonly onSaveError: (err: unknown) => void = () => undefined,
  ) {}

  // ---- time ----

  /** Applies the device timeouts and void confirmations that are due; emits their events. */
  settle(now = Date.now()): void {
    const changed: StateRecord[] = [];
    for (const device of this.store.devices()) {
      const bill = device.currentBillRef ? this.store.bill(device.currentBillRef) : undefined;
      if (bill && bill.state === 'WAITING' && now >= Date.parse(bill.expiresAt)) {
        this.decide(device, bill, 'EXPIRED', bill.expiresAt);
        changed.push(device, bill);
      }
    }
    for (const r of this.store.pendingReversals()) {
      if (now >= Date.parse(r.confirmAt)) {
        r.state = 'CONFIRMED';
        const bill = this.store.bill(r.acquirerRef);
        if (bill) bill.voided = true;
        this.emit({ deviceId: r.deviceId, acquirerRef: r.acquirerRef, event: 'VOID_CONFIRMED', voidReference: r.voidReference });
        changed.push(r, ...(bill ? [bill] : []));
      }
    }
    for (const r of this.store.pendingRefunds()) {
      if (now >= Date.parse(r.decideAt)) {
        const bill = this.decideRefund(r, r.decideAt);
        changed.push(r, ...(bill ? [bill] : []));
      }
    }
    changed.push(...decideDueDisputes(this.store, this.emit, now));
    changed.push(...decideDuePayouts(this.store, this.emit, now));
    // The outcome is recomputed from stored times after a restart, so reads need not wait for this write.
    if (changed.length) this.store.save(...changed).catch(this.onSaveError);
  }

  /** The earliest moment settle has something to do, or null. */
  nextDeadline(): number | null {
    let next: number | null = null;
    const consider = (t: number) => (next = next === null ? t : Math.min(next, t));
    for (const device of this.store.devices()) {
      const bill = device.currentBillRef ? this.store.bill(device.currentBillRef) : undefined;
      if (bill?.state === 'WAITING') consider(Date.parse(bill.expiresAt));
    }
    for (const r of this.store.pendingReversals()) consider(Date.parse(r.confirmAt));
    for (const r of this.store.pendingRefunds()) consider(Date.parse(r.decideAt));
    for (const d of this.store.disputesUnderReview()) if (d.decideAt) consider(Date.parse(d.decideAt));
    for (const p of this.store.payoutsInTransit()) consider(Date.parse(p.decideAt));
    return next;
  }

  // ---- control (the customer and the network) ----

  deviceView(deviceId: string): DeviceView {
    this.settle();
    const d = this.store.deviceOrDefault(deviceId);
    const view = (ref: string | null) => {
      const bill = ref ? this.store.bill(ref) : undefined;
      return bill ? billView(bill) : null;
    };
    return {
      deviceId,
      modes: d.modes,
      twoStep: d.twoStep,
      voidSupported: d.voidSupported,
      reachable: d.reachable,
      latencyMs: d.latencyMs,
      voidConfirmDelayMs: d.voidConfirmDelayMs,
      refundOutcome: d.refundOutcome,
      refundConfirmDelayMs: d.refundConfirmDelayMs,
      disputeOutcome: d.disputeOutcome,
      disputeDecisionDelayMs: d.disputeDecisionDelayMs,
      omitFromReport: d.omitFromReport ?? [],
      currentBill: view(d.currentBillRef),
      lastBill: view(d.lastBillRef),
    };
  }

  async configureDevice(deviceId: string, patch: Partial<DeviceSettings>): Promise<DeviceView> {
    const device = this.store.ensureDevice(deviceId);
    for (const [key, value] of Object.entries(patch)) if (value !== undefined) Object.assign(device, { [key]: value });
    await this.store.save(device);
    return this.deviceView(deviceId);
  }

  accountView(merchantAccountId: string): SandboxAccount {
    return { ...this.store.accountOrDefault(merchantAccountId) };
  }

  /** Sets a MID's terms (docs/payouts-and-fees.md, "The sandbox's terms per MID"); the fields left out keep their values. */
  async configureAccount(merchantAccountId: string, patch: Partial<Omit<SandboxAccount, 'merchantAccountId'>>): Promise<SandboxAccount> {
    const account = this.store.ensureAccount(merchantAccountId);
    for (const [key, value] of Object.entries(patch)) if (value !== undefined) Object.assign(account, { [key]: value });
    await this.store.save(account);
    return this.accountView(merchantAccountId);
  }

  billView(acquirerRef: string): BillView {
    this.settle();
    const bill = this.store.bill(acquirerRef);
    if (!bill) throw new SandboxError(404, `no bill ${acquirerRef}`);
    return billView(bill);
  }

  /** The customer acts on the bill on the device. A decided bill (even AUTHORIZED) has left the device. */
  async customerAct(deviceId: string, act: CustomerAction): Promise<BillView> {
    this.settle();
    const device = this.store.deviceOrDefault(deviceId);
    const bill = device.currentBillRef ? this.store.bill(device.currentBillRef) : undefined;
    if (!bill || bill.state !== 'WAITING') throw new SandboxError(409, `no bill on device ${deviceId}`);
    const now = new Date().toISOString();
    if (act.action === 'pay') {
      const mode = act.mode ?? (bill.modes.length === 1 ? bill.modes[0] : 'CARD');
      if (!bill.modes.includes(mode)) {
        throw new SandboxError(409, `mode ${mode} is not allowed for this bill (allowed: ${bill.modes.join(', ')})`);
      }
      if (act.approvedAmount !== undefined) checkApprovedAmount(act.approvedAmount, bill);
      // The customer's tip, where the bill asked for one (docs/tips.md); checked before anything changes.
      const tip = bill.askTip && act.tipAmount !== undefined ? chosenTip(act.tipAmount, bill, bill.askTip) : undefined;
      bill.paymentMethod = mode;
      if (mode === 'CARD') {
        bill.cardBrand = act.cardBrand ?? 'VISA';
        bill.last4 = act.last4 ?? '4242';
      } else {
        // A QR wallet has no card; keep only what the caller explicitly gave.
        if (act.cardBrand !== undefined) bill.cardBrand = act.cardBrand;
        if (act.last4 !== undefined) bill.last4 = act.last4;
      }
      if (act.approvedAmount !== undefined && !bill.allowPartialAuthorisation) {
        // The card's balance is below the amount and the payment takes nothing less: declined.
        bill.errorMessage = INSUFFICIENT_FUNDS;
        this.decide(device, bill, 'DECLINED', now);
      } else {
        // The card is charged the sale and the tip.
        if (tip !== undefined) bill.tipAmount = tip;
        const sale = act.approvedAmount !== undefined ? new Decimal(act.approvedAmount) : new Decimal(bill.amount);
        if (act.approvedAmount !== undefined || bill.tipAmount !== undefined) bill.authorizedAmount = sale.plus(bill.tipAmount ?? 0).toFixed();
        if (!device.twoStep) bill.capturedAmount = bill.authorizedAmount ?? bill.amount;
        this.decide(device, bill, device.twoStep ? 'AUTHORIZED' : 'CAPTURED', now);
      }
    } else if (act.action === 'decline') {
      this.decide(device, bill, 'DECLINED', now);
    } else if (act.action === 'cancel') {
      this.decide(device, bill, 'CANCELLED', now);
    } else {
      bill.errorMessage = 'the device reported a processing error';
      this.decide(device, bill, 'ERROR', now);
    }
    await this.store.save(device, bill);
    return billView(bill);
  }

  /** A card payment taken on the device outside the service; it appears only in the next settlement report. */
  async offlinePayment(deviceId: string, payment: OfflinePayment): Promise<BillView> {
    const bill = recordOfflinePayment(this.store, deviceId, payment);
    await this.store.save(); // rare: the whole state is written
    return billView(bill);
  }

  // ---- acquirer API (what the service calls through the adapter) ----

  async closeBatch(deviceId: string, batchReference: string, until: string, merchantAccountId = SANDBOX_MID): Promise<SandboxReport> {
    this.settle();
    const known = this.store.report(deviceId, merchantAccountId, batchReference) !== undefined;
    const report = closeDeviceBatch(this.store, deviceId, merchantAccountId, batchReference, until);
    // A new report is paid out (docs/payouts-and-fees.md); a repeated close answers the same report and pays nothing again.
    const payouts = known ? [] : payoutsForReport(this.store, report, this.store.accountOrDefault(merchantAccountId));
    await this.store.save(); // a close marks many bills and keeps its report: the whole state is written
    for (const p of payouts) this.emit(payoutEvent(p));
    return report;
  }

  /** A payout of the device's reports (the acquirer API). */
  payoutStatus(deviceId: string, payoutId: string): ReturnType<typeof payoutView> {
    this.settle();
    const p = this.store.payout(payoutId);
    if (!p || p.deviceId !== deviceId) throw new SandboxError(404, `no payout ${payoutId} for device ${deviceId}`);
    return payoutView(p);
  }

  /** A MID's payouts, newest first (the control API: what the bank received). */
  payoutsOf(merchantAccountId: string): SandboxPayout[] {
    this.settle();
    return this.store.payoutsOf(merchantAccountId).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  capabilities(deviceId: string): DeviceCapabilities {
    const d = this.store.deviceOrDefault(deviceId);
    return { deviceId, modes: d.modes, twoStep: d.twoStep, voidSupported: d.voidSupported };
  }

  async sendBill(req: SandboxBillRequest): Promise<SendBillResult> {
    this.settle();
    // A retry of a send that already succeeded (its answer was lost) gets the same bill back, under
    // whichever MID it was first booked: a payment is in one set of books.
    const again = this.store.billForPayment(req.deviceId, req.paymentId);
    if (again) return { outcome: 'ON_DEVICE', acquirerRef: again.acquirerRef };

    const device = this.store.deviceOrDefault(req.deviceId);
    if (device.currentBillRef) {
      return { outcome: 'DEVICE_BUSY', currentReference: this.store.bill(device.currentBillRef)?.reference ?? null };
    }
    const modes = req.modes.filter((m) => device.modes.includes(m));
    if (modes.length === 0) return { outcome: 'MODE_UNSUPPORTED', supportedModes: device.modes };

    const now = Date.now();
    const bill: Bill = {
      acquirerRef: `sbx_${randomBytes(12).toString('hex')}`,
      deviceId: req.deviceId,
      merchantAccountId: req.merchantAccountId ?? SANDBOX_MID,
      paymentId: req.paymentId,
      pspReference: req.pspReference,
      amount: req.amount,
      currency: req.currency,
      ...(req.allowPartialAuthorisation ? { allowPartialAuthorisation: true } : {}),
      ...(req.tipAmount !== undefined && !new Decimal(req.tipAmount).isZero() ? { tipAmount: new Decimal(req.tipAmount).toFixed() } : {}),
      ...(req.askTip ? { askTip: req.askTip } : {}),
      reference: req.reference ?? null,
      ...(req.receipt ? { receipt: req.receipt } : {}),
      modes,
      state: 'WAITING',
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + Math.round(req.timeoutSeconds * 1000)).toISOString(),
      voided: false,
    };
    this.store.addBill(bill);
    const stored = this.store.ensureDevice(req.deviceId);
    stored.currentBillRef = bill.acquirerRef;
    stored.lastBillRef = bill.acquirerRef;
    await this.store.save(stored, bill);
    return { outcome: 'ON_DEVICE', acquirerRef: bill.acquirerRef };
  }

  billStatus(deviceId: string, acquirerRef: string): SandboxBillStatus {
    this.settle();
    return billStatus(this.deviceBill(deviceId, acquirerRef));
  }

  /** Takes a WAITING bill off the device; a decided bill is answered unchanged. */
  async withdrawBill(deviceId: string, acquirerRef: string): Promise<SandboxBillStatus> {
    this.settle();
    const bill = this.deviceBill(deviceId, acquirerRef);
    if (bill.state === 'WAITING') {
      const device = this.store.ensureDevice(deviceId);
      this.decide(device, bill, 'WITHDRAWN', new Date().toISOString());
      await this.store.save(device, bill);
    }
    return billStatus(bill);
  }

  /** Each new voidReference is a new reversal; repeating a voidReference answers that reversal. */
  async submitVoid(deviceId: string, acquirerRef: string, voidReference: string): Promise<VoidStatus> {
    this.settle();
    const bill = this.deviceBill(deviceId, acquirerRef);
    const existing = this.store.reversal(voidReference);
    if (existing) {
      if (existing.acquirerRef !== acquirerRef) throw new SandboxError(409, `void reference ${voidReference} belongs to another bill`);
      return voidStatus(existing);
    }
    const device = this.store.deviceOrDefault(deviceId);
    const now = Date.now();
    const r: Reversal = {
      voidReference,
      acquirerRef,
      deviceId,
      state: 'PENDING',
      submittedAt: new Date(now).toISOString(),
      confirmAt: new Date(now + device.voidConfirmDelayMs).toISOString(),
    };
    if (!device.voidSupported) {
      r.state = 'REJECTED';
      r.message = 'the device does not support voids';
    } else if (bill.state !== 'CAPTURED') {
      r.state = 'REJECTED';
      r.message = `only a CAPTURED bill can be voided; this one is ${bill.state}`;
    } else if (bill.voided) {
      // The money is already back; answering CONFIRMED lets a retrying caller settle correctly.
      r.state = 'CONFIRMED';
      r.message = 'the bill was already reversed';
    } else if (device.voidConfirmDelayMs === 0) {
      r.state = 'CONFIRMED';
      bill.voided = true;
    }
    this.store.addReversal(r);
    await this.store.save(r, bill);
    return voidStatus(r);
  }

  // ---- two-step completion and release ----

  /** Captures an authorised bill (up to its amount); a repeat answers the completed bill. */
  async completeAuthorization(deviceId: string, acquirerRef: string, req: CompleteAuthorizationRequest): Promise<SandboxBillStatus> {
    this.settle();
    const bill = this.deviceBill(deviceId, acquirerRef);
    if (bill.state === 'CAPTURED' && bill.captureReference !== undefined) return billStatus(bill);
    if (bill.state !== 'AUTHORIZED') throw new SandboxError(409, `only an AUTHORIZED bill can be completed; this one is ${bill.state}`);
    const authorised = bill.authorizedAmount ?? bill.amount;
    if (new Decimal(req.amount).gt(authorised) || new Decimal(req.amount).lte(0)) {
      throw new SandboxError(409, `the completion amount ${req.amount} must be greater than 0 and at most the authorised ${authorised}`);
    }
    bill.state = 'CAPTURED';
    bill.capturedAmount = new Decimal(req.amount).toFixed();
    bill.capturedAt = new Date().toISOString();
    bill.captureReference = req.captureReference;
    await this.store.save(bill);
    return billStatus(bill);
  }

  /** Releases the hold of an authorised bill; a released or completed bill is answered as it is. */
  async releaseAuthorization(deviceId: string, acquirerRef: string): Promise<SandboxBillStatus> {
    this.settle();
    const bill = this.deviceBill(deviceId, acquirerRef);
    if (bill.state === 'AUTHORIZED') {
      bill.state = 'RELEASED';
      bill.decidedAt = new Date().toISOString();
      await this.store.save(bill);
    } else if (bill.state !== 'RELEASED' && bill.state !== 'CAPTURED') {
      throw new SandboxError(409, `only an AUTHORIZED bill can be released; this one is ${bill.state}`);
    }
    return billStatus(bill);
  }

  // ---- refunds ----

  /**
   * One refund per refundReference: a repeat answers that refund (its first submission's answer may
   * have been lost). A refund is decided at once, or refundConfirmDelayMs later, with the device's
   * refundOutcome; more than the bill's captured amount not yet refunded fails.
   */
  async refund(deviceId: string, acquirerRef: string, req: RefundRequest): Promise<RefundStatus> {
    this.settle();
    const bill = this.deviceBill(deviceId, acquirerRef);
    const existing = this.store.refund(req.refundReference);
    if (existing) {
      if (existing.acquirerRef !== acquirerRef) throw new SandboxError(409, `refund reference ${req.refundReference} belongs to another bill`);
      return refundStatus(existing);
    }
    if (bill.state !== 'CAPTURED') throw new SandboxError(409, `only a CAPTURED bill can be refunded; this one is ${bill.state}`);
    if (req.currency !== bill.currency) throw new SandboxError(409, `the refund currency ${req.currency} is not the bill's ${bill.currency}`);
    const device = this.store.deviceOrDefault(deviceId);
    const now = Date.now();
    const r: SandboxRefund = {
      refundReference: req.refundReference,
      acquirerRef,
      deviceId,
      amount: new Decimal(req.amount).toFixed(),
      currency: req.currency,
      state: 'PENDING',
      outcome: device.refundOutcome,
      submittedAt: new Date(now).toISOString(),
      decideAt: new Date(now + device.refundConfirmDelayMs).toISOString(),
    };
    const committed = this.store
      .refundsOfBill(acquirerRef)
      .filter((x) => x.state !== 'FAILED')
      .reduce((sum, x) => sum.plus(x.amount), new Decimal(0));
    const captured = new Decimal(bill.capturedAmount ?? bill.amount);
    if (bill.voided) {
      r.outcome = 'FAILED';
      r.message = 'the bill was reversed';
    } else if (new Decimal(req.amount).lte(0) || committed.plus(req.amount).gt(captured)) {
      r.outcome = 'FAILED';
      r.message = `the refund of ${req.amount} exceeds what is left of the captured ${captured.toFixed()}`;
    }
    this.store.addRefund(r);
    if (device.refundConfirmDelayMs === 0 || r.message) this.decideRefund(r, r.submittedAt, false);
    await this.store.save(r, bill);
    return refundStatus(r);
  }

  refundStatus(deviceId: string, refundReference: string): RefundStatus {
    this.settle();
    const r = this.store.refund(refundReference);
    if (!r || r.deviceId !== deviceId) throw new SandboxError(404, `no refund ${refundReference} on device ${deviceId}`);
    return refundStatus(r);
  }

  /** Decides a refund as planned at its submission; answers the bill it changed. */
  private decideRefund(r: SandboxRefund, at: string, notify = true): Bill | undefined {
    r.state = r.outcome;
    r.decidedAt = at;
    if (r.state === 'FAILED') r.message ??= 'the issuer declined the refund';
    const bill = this.store.bill(r.acquirerRef);
    if (bill && r.state === 'SUCCEEDED') bill.refundedAmount = new Decimal(bill.refundedAmount ?? 0).plus(r.amount).toFixed();
    if (notify)
      this.emit({
        deviceId: r.deviceId,
        acquirerRef: r.acquirerRef,
        event: r.state === 'SUCCEEDED' ? 'REFUND_SUCCEEDED' : 'REFUND_FAILED',
        refundReference: r.refundReference,
      });
    return bill;
  }

  voidStatus(deviceId: string, voidReference: string): VoidStatus {
    this.settle();
    const r = this.store.reversal(voidReference);
    if (!r || r.deviceId !== deviceId) throw new SandboxError(404, `no void ${voidReference} on device ${deviceId}`);
    return voidStatus(r);
  }

  // ---- disputes (docs/disputes.md, "The sandbox") ----

  /** The cardholder's bank opens a dispute on a captured bill; the service is notified. */
  async openDispute(pspReference: string, req: OpenDisputeRequest) {
    this.settle();
    const d = openDispute(this.store, this.emit, pspReference, req);
    await this.store.save(d);
    return disputeControlView(d);
  }

  dispute(deviceId: string, disputeId: string): AcquirerDispute {
    this.settle();
    return disputeView(deviceDispute(this.store, deviceId, disputeId));
  }

  async submitDisputeEvidence(deviceId: string, disputeId: string, evidence: DisputeEvidence): Promise<AcquirerDispute> {
    this.settle();
    const d = submitEvidence(this.store, deviceDispute(this.store, deviceId, disputeId), evidence);
    await this.store.save(d);
    return disputeView(d);
  }

  async acceptDispute(deviceId: string, disputeId: string): Promise<AcquirerDispute> {
    this.settle();
    const d = acceptDispute(deviceDispute(this.store, deviceId, disputeId));
    await this.store.save(d);
    return disputeView(d);
  }

  // ---- helpers ----

  private deviceBill(deviceId: string, acquirerRef: string): Bill {
    const bill = this.store.bill(acquirerRef);
    if (!bill || bill.deviceId !== deviceId) throw new SandboxError(404, `no bill ${acquirerRef} on device ${deviceId}`);
    return bill;
  }

  /** Records the outcome, frees the device, and notifies for outcomes the service did not cause. */
  private decide(device: Device, bill: Bill, state: BillState, at: string): void {
    bill.state = state;
    bill.decidedAt = at;
    if (device.currentBillRef === bill.acquirerRef) device.currentBillRef = null;
    if (state !== 'WITHDRAWN') this.emit({ deviceId: bill.deviceId, acquirerRef: bill.acquirerRef, event: state });
  }
}

function billView({ state, ...rest }: Bill): BillView {
  return { ...rest, status: state };
}

function billStatus(b: Bill): SandboxBillStatus {
  return {
    acquirerRef: b.acquirerRef,
    merchantAccountId: b.merchantAccountId,
    state: b.state,
    paymentMethod: b.paymentMethod,
    cardBrand: b.cardBrand,
    last4: b.last4,
    errorMessage: b.errorMessage,
    decidedAt: b.decidedAt,
    capturedAmount: b.capturedAmount,
    capturedAt: b.capturedAt,
    ...(b.authorizedAmount !== undefined ? { authorizedAmount: b.authorizedAmount } : {}),
    ...(b.tipAmount !== undefined ? { tipAmount: b.tipAmount } : {}),
  };
}

/**
 * The tip a customer chose on the device (docs/tips.md): 0 or more in the currency's minor unit;
 * without a custom amount allowed, one of the offered percentages of the amount, rounded half up
 * (400 naming the field).
 */
function chosenTip(tipAmount: string, bill: Bill, offer: TipOffer): string {
  const tip = new Decimal(tipAmount);
  const digits = minorUnitsOf(bill.currency);
  if (tip.decimalPlaces() > digits) throw new SandboxError(400, `tipAmount: must have at most ${digits} decimal places for ${bill.currency}`);
  const offered = offer.percentages.map((p) => new Decimal(bill.amount).times(p).dividedBy(100).toDecimalPlaces(digits, Decimal.ROUND_HALF_UP));
  if (!offer.allowCustom && !tip.isZero() && !offered.some((o) => o.equals(tip))) {
    throw new SandboxError(400, `tipAmount: this bill offers only ${offered.map((o) => o.toFixed(digits)).join(', ')} (no custom tip)`);
  }
  return tip.toFixed();
}

/** A card's approval below the bill's amount: positive, less than the amount, in the currency's minor unit (400 naming the field). */
function checkApprovedAmount(approvedAmount: string, bill: Bill): void {
  const approved = new Decimal(approvedAmount);
  if (approved.decimalPlaces() > minorUnitsOf(bill.currency)) {
    throw new SandboxError(400, `approvedAmount: must have at most ${minorUnitsOf(bill.currency)} decimal places for ${bill.currency}`);
  }
  if (approved.gte(bill.amount)) throw new SandboxError(400, `approvedAmount: must be less than the bill's amount ${bill.amount}`);
}

function refundStatus(r: SandboxRefund): RefundStatus {
  return { refundReference: r.refundReference, state: r.state, amount: r.amount, message: r.message, decidedAt: r.decidedAt };
}

function voidStatus(r: Reversal): VoidStatus {
  return { voidReference: r.voidReference, state: r.state, message: r.message };
}
