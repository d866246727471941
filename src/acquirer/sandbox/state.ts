import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import type {
  AcquirerDispute,
  AcquirerPayout,
  BillState,
  DisputeEvidence,
  ReceiptDetails,
  PaymentMode,
  RefundState,
  SettlementReport,
  TipOffer,
  VoidState,
} from '../port';

/**
 * The sandbox acquirer's memory: devices, bills, reversals and settlement reports, kept on disk in
 * `<dataDir>/sandbox/` so that a restart finds a bill still on its device, as a real acquirer
 * would. The in-memory copy is the truth while running. Every change is followed by save(changed
 * records), which appends those records as one line to `state.journal` (concurrent saves join one
 * append), so a change costs its own size, not the whole state's. save() without records, every
 * JOURNAL_COMPACT_LINES lines and at close, writes the whole state to `state.json` (temp file +
 * rename) and empties the journal. Loading reads state.json, then applies the journal's lines in
 * order (a torn last line, from a crash mid-append, is ignored).
 */
export const ALL_MODES: PaymentMode[] = ['CARD', 'QR_CODE'];

/** The books of the installation default (a call without a MID), and of bills stored before MIDs existed. */
export const SANDBOX_MID = 'SANDBOX';

export interface DeviceSettings {
  modes: PaymentMode[];
  twoStep: boolean;
  voidSupported: boolean;
  reachable: boolean;
  latencyMs: number;
  voidConfirmDelayMs: number;
  /** How refunds of this device's payments end (decided when submitted). */
  refundOutcome: 'SUCCEEDED' | 'FAILED';
  /** Delays the decision on a refund; until then it is PENDING. */
  refundConfirmDelayMs: number;
  /** Acquirer references the next settlement report leaves out (docs/settlement.md, "The sandbox"). */
  omitFromReport: string[];
  /** How the scheme decides a dispute of this device's payments once evidence is submitted (docs/disputes.md, "The sandbox"). */
  disputeOutcome: 'WON' | 'LOST';
  /** Delays that decision; until then the dispute is UNDER_REVIEW. */
  disputeDecisionDelayMs: number;
}

export interface Device extends DeviceSettings {
  deviceId: string;
  /** acquirerRef of the WAITING bill on the device, or null when the device is free. */
  currentBillRef: string | null;
  /** acquirerRef of the last bill sent to the device (for the control view). */
  lastBillRef: string | null;
}

export interface Bill {
  acquirerRef: string;
  deviceId: string;
  /** The merchant account (MID) whose books carry the bill: a close under that MID reports it. */
  merchantAccountId: string;
  paymentId: string;
  pspReference: string;
  amount: string; // exact decimal, never a float
  currency: string;
  /** The card may approve less than the amount (the service's allowPartialAuthorisation). */
  allowPartialAuthorisation?: boolean;
  /** Exact decimal the card approved, tip included, when a tip or a partial authorisation makes it differ from the amount. */
  authorizedAmount?: string;
  /** The tip on top of the amount (docs/tips.md): the POS's, sent with the bill, or the one the customer chose. */
  tipAmount?: string;
  /** The bill asks the customer for a tip with these options. */
  askTip?: TipOffer;
  reference: string | null;
  /** What the receipt prints besides the amount: cashier and customer contact, as the service sent them. */
  receipt?: ReceiptDetails;
  /** Modes this bill may be paid with: the requested modes the device offered at send time. */
  modes: PaymentMode[];
  state: BillState;
  createdAt: string;
  /** When the device's own timeout ends a WAITING bill. */
  expiresAt: string;
  decidedAt?: string;
  paymentMethod?: PaymentMode;
  cardBrand?: string;
  last4?: string;
  errorMessage?: string;
  /** A confirmed reversal exists; the bill's state stays CAPTURED (there is no voided state). */
  voided: boolean;
  /** The batch reference of the settlement report that carried this bill. */
  reportedIn?: string;
  /** Taken on the device outside the service (an offline payment, docs/settlement.md, "The sandbox"). */
  offline?: boolean;
  /** Exact decimal captured: the amount, or what a two-step completion took. */
  capturedAmount?: string;
  /** When a two-step authorisation was completed. */
  capturedAt?: string;
  captureReference?: string;
  /** Exact decimal of the succeeded refunds. */
  refundedAmount?: string;
}

export interface SandboxRefund {
  refundReference: string;
  acquirerRef: string;
  deviceId: string;
  amount: string;
  currency: string;
  state: RefundState;
  /** How the refund ends at decideAt (the device's refundOutcome when it was submitted). */
  outcome: 'SUCCEEDED' | 'FAILED';
  submittedAt: string;
  decideAt: string;
  decidedAt?: string;
  message?: string;
  /** The batch reference of the settlement report that carried this refund. */
  reportedIn?: string;
}

/** A dispute the cardholder's bank opened on a captured bill (docs/disputes.md, "The sandbox"). */
export interface SandboxDispute extends AcquirerDispute {
  deviceId: string;
  merchantAccountId: string;
  paymentId: string;
  pspReference: string;
  submittedAt?: string;
  /** Planned at submission from the device's settings: the outcome and when it is decided. */
  outcome?: 'WON' | 'LOST';
  decideAt?: string;
  evidence?: DisputeEvidence;
  closedAt?: string;
  /** The batch references of the settlement reports that carried its debit and, once WON, its reversal. */
  debitReportedIn?: string;
  reversalReportedIn?: string;
}

export interface Reversal {
  voidReference: string;
  acquirerRef: string;
  deviceId: string;
  state: VoidState;
  submittedAt: string;
  /** submittedAt + the device's voidConfirmDelayMs: from then on a PENDING reversal is CONFIRMED. */
  confirmAt: string;
  message?: string;
}

/** A MID's terms at the sandbox (`PUT /sim/accounts/{merchantAccountId}`, docs/payouts-and-fees.md): the fees its reports charge, its payouts. */
export interface SandboxAccount {
  merchantAccountId: string;
  /** Exact decimal text: percent of the amount, and the fixed part in the payment's currency. */
  cardPercent: string;
  cardFixed: string;
  qrPercent: string;
  qrFixed: string;
  payoutOutcome: 'PAID' | 'FAILED';
  payoutDelayMs: number;
  /** Exact decimal kept back from each payout (0): a payout short of its report's net, for the reconciliation to find. */
  payoutWithheld?: string;
}

export const DEFAULT_ACCOUNT: Omit<SandboxAccount, 'merchantAccountId'> = {
  cardPercent: '1.40',
  cardFixed: '0.10',
  qrPercent: '0.90',
  qrFixed: '0',
  payoutOutcome: 'PAID',
  payoutDelayMs: 0,
  payoutWithheld: '0',
};

/** A payout the sandbox made to a MID's bank (payouts.ts decides them). */
export interface SandboxPayout {
  payoutId: string;
  merchantAccountId: string;
  deviceId: string;
  batchReference: string;
  currency: string;
  amount: string;
  status: AcquirerPayout['status'];
  createdAt: string;
  /** From then on an IN_TRANSIT payout is decided: `outcome`. */
  decideAt: string;
  outcome: 'PAID' | 'FAILED';
  arrivalDate: string;
  failureReason?: string;
}

export interface StateFile {
  version: 1;
  devices: Record<string, Device>;
  bills: Record<string, Bill>;
  voids: Record<string, Reversal>;
  /** Settlement reports by reportKey(), so a retried close answers the same report. */
  reports?: Record<string, SettlementReport>;
  refunds?: Record<string, SandboxRefund>;
  /** MIDs whose terms were set; any other MID has DEFAULT_ACCOUNT's. */
  accounts?: Record<string, SandboxAccount>;
  payouts?: Record<string, SandboxPayout>;
  disputes?: Record<string, SandboxDispute>;
}

export const DEFAULT_SETTINGS: DeviceSettings = {
  modes: [...ALL_MODES],
  twoStep: false,
  voidSupported: true,
  reachable: true,
  latencyMs: 0,
  voidConfirmDelayMs: 0,
  omitFromReport: [],
  refundOutcome: 'SUCCEEDED',
  refundConfirmDelayMs: 0,
  disputeOutcome: 'WON',
  disputeDecisionDelayMs: 0,
};

/** Bills that left their device longer ago than this are dropped at load (well past the void window), unless still to be reported. */
const RETENTION_MS = 48 * 3600 * 1000;
/** Settlement reports are kept this long for retried closes. */
const REPORT_RETENTION_MS = 14 * 24 * 3600 * 1000;
/** Captured bills are kept longer: they can still be refunded. */
const CAPTURED_RETENTION_MS = 90 * 24 * 3600 * 1000;
/** Journal lines after which the whole state is written again and the journal emptied. */
const JOURNAL_COMPACT_LINES = 5000;

/** A record that changed: a device, a bill or a reversal (other changes save the whole state). */
export type StateRecord = Device | Bill | Reversal | SandboxRefund | SandboxAccount | SandboxDispute | SandboxPayout;

interface JournalLine {
  devices?: Device[];
  bills?: Bill[];
  voids?: Reversal[];
  refunds?: SandboxRefund[];
  accounts?: SandboxAccount[];
  payouts?: SandboxPayout[];
  disputes?: SandboxDispute[];
}

/**
 * The dictionaries are objects without a prototype: a key a caller chose (a device id such as
 * `__proto__` or `constructor`) is only ever an own entry, never Object.prototype or its methods.
 */
function dict<T>(from?: Record<string, T>): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, from ?? {});
}

function readIfExists(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** The state as it is on disk: state.json with the journal applied (also for the chaos suite's analysis). */
export function readStateFiles(dir: string): StateFile | undefined {
  const file = path.join(dir, 'state.json');
  const text = readIfExists(file);
  const journal = readIfExists(path.join(dir, 'state.journal'));
  if (text === undefined && journal === undefined) return undefined;
  let data: StateFile = { version: 1, devices: dict(), bills: dict(), voids: dict(), reports: dict(), refunds: dict(), disputes: dict() };
  if (text !== undefined) {
    let parsed: StateFile;
    try {
      parsed = JSON.parse(text) as StateFile;
    } catch (err) {
      throw new Error(`sandbox state file ${file} is not valid JSON: ${(err as Error).message}`);
    }
    if (parsed?.version !== 1 || typeof parsed.devices !== 'object' || typeof parsed.bills !== 'object') {
      throw new Error(`sandbox state file ${file} has an unknown format`);
    }
    // Devices saved before a setting existed take its default.
    const devices = dict<Device>();
    for (const [id, d] of Object.entries(parsed.devices)) devices[id] = { ...DEFAULT_SETTINGS, ...d };
    data = {
      version: 1,
      devices,
      bills: dict(parsed.bills),
      voids: dict(parsed.voids),
      reports: dict(parsed.reports),
      refunds: dict(parsed.refunds),
      accounts: dict(parsed.accounts),
      payouts: dict(parsed.payouts),
      disputes: dict(parsed.disputes),
    };
  }
  for (const raw of (journal ?? '').split('\n')) {
    if (!raw) continue;
    let line: JournalLine;
    try {
      line = JSON.parse(raw) as JournalLine;
    } catch {
      continue; // a torn append: the change it carried was never answered as done
    }
    for (const d of line.devices ?? []) data.devices[d.deviceId] = d;
    for (const b of line.bills ?? []) data.bills[b.acquirerRef] = b;
    for (const v of line.voids ?? []) data.voids[v.voidReference] = v;
    for (const r of line.refunds ?? []) (data.refunds ??= dict())[r.refundReference] = r;
    for (const a of line.accounts ?? []) (data.accounts ??= dict())[a.merchantAccountId] = a;
    for (const p of line.payouts ?? []) (data.payouts ??= dict())[p.payoutId] = p;
    for (const d of line.disputes ?? []) (data.disputes ??= dict())[d.disputeId] = d;
  }
  // Bills written before MIDs existed were the installation default's.
  for (const b of Object.values(data.bills)) b.merchantAccountId ??= SANDBOX_MID;
  return data;
}

export class SandboxStore {
  readonly file: string;
  private readonly journalFile: string;
  private data: StateFile = { version: 1, devices: dict(), bills: dict(), voids: dict(), reports: dict(), refunds: dict(), disputes: dict() };
  /** acquirerRef by device and payment: send-bill's retry check without a scan of every bill. */
  private billsByPayment = new Map<string, string>();
  /** Records changed since the last write, and the write (queued, not started) that will carry them. */
  private changed = new Set<StateRecord>();
  private queued: Promise<void> | null = null;
  private last: Promise<void> = Promise.resolve();
  private journalLines = 0;
  private tmpCounter = 0;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'sandbox', 'state.json');
    this.journalFile = path.join(dataDir, 'sandbox', 'state.journal');
  }

  /** Reads the files if there are any. A damaged state.json stops the start rather than losing bills silently. */
  load(now = Date.now()): void {
    const data = readStateFiles(path.dirname(this.file));
    if (!data) return;
    this.data = data;
    this.prune(now);
    this.billsByPayment.clear();
    for (const b of Object.values(this.data.bills)) this.billsByPayment.set(paymentKey(b.deviceId, b.paymentId), b.acquirerRef);
    this.journalLines = Number.POSITIVE_INFINITY; // the next save writes a fresh state.json
  }

  /** The device if it was ever used, else null (callers use deviceOrDefault for reads). */
  findDevice(deviceId: string): Device | undefined {
    return this.data.devices[deviceId];
  }

  /** Any device id is known on first use, with the defaults. Reading does not store it. */
  deviceOrDefault(deviceId: string): Device {
    return this.data.devices[deviceId] ?? { deviceId, ...DEFAULT_SETTINGS, modes: [...ALL_MODES], currentBillRef: null, lastBillRef: null };
  }

  /** The device, stored so that changes to it persist. */
  ensureDevice(deviceId: string): Device {
    return (this.data.devices[deviceId] ??= this.deviceOrDefault(deviceId));
  }

  devices(): Device[] {
    return Object.values(this.data.devices);
  }

  bill(acquirerRef: string): Bill | undefined {
    return this.data.bills[acquirerRef];
  }

  addBill(bill: Bill): void {
    this.data.bills[bill.acquirerRef] = bill;
    this.billsByPayment.set(paymentKey(bill.deviceId, bill.paymentId), bill.acquirerRef);
  }

  /** A bill for this payment already sent to this device (makes send-bill safe to retry). */
  billForPayment(deviceId: string, paymentId: string): Bill | undefined {
    const ref = this.billsByPayment.get(paymentKey(deviceId, paymentId));
    return ref ? this.data.bills[ref] : undefined;
  }

  reversal(voidReference: string): Reversal | undefined {
    return this.data.voids[voidReference];
  }

  addReversal(r: Reversal): void {
    this.data.voids[r.voidReference] = r;
  }

  billsOfDevice(deviceId: string): Bill[] {
    return Object.values(this.data.bills).filter((b) => b.deviceId === deviceId);
  }

  report(deviceId: string, merchantAccountId: string, batchReference: string): SettlementReport | undefined {
    return this.data.reports?.[reportKey(deviceId, merchantAccountId, batchReference)];
  }

  addReport(merchantAccountId: string, r: SettlementReport): void {
    (this.data.reports ??= dict())[reportKey(r.deviceId, merchantAccountId, r.batchReference)] = r;
  }

  payout(payoutId: string): SandboxPayout | undefined {
    return this.data.payouts?.[payoutId];
  }

  addPayout(p: SandboxPayout): void {
    (this.data.payouts ??= dict())[p.payoutId] = p;
  }

  payoutsInTransit(): SandboxPayout[] {
    return Object.values(this.data.payouts ?? {}).filter((p) => p.status === 'IN_TRANSIT');
  }

  payoutsOf(merchantAccountId: string): SandboxPayout[] {
    return Object.values(this.data.payouts ?? {}).filter((p) => p.merchantAccountId === merchantAccountId);
  }

  /** The MID's terms: as set, else the defaults. Reading does not store them. */
  accountOrDefault(merchantAccountId: string): SandboxAccount {
    return this.data.accounts?.[merchantAccountId] ?? { merchantAccountId, ...DEFAULT_ACCOUNT };
  }

  /** The MID's terms, stored so that changes to them persist. */
  ensureAccount(merchantAccountId: string): SandboxAccount {
    return ((this.data.accounts ??= dict())[merchantAccountId] ??= this.accountOrDefault(merchantAccountId));
  }

  refund(refundReference: string): SandboxRefund | undefined {
    return this.data.refunds?.[refundReference];
  }

  addRefund(r: SandboxRefund): void {
    (this.data.refunds ??= dict())[r.refundReference] = r;
  }

  refundsOfBill(acquirerRef: string): SandboxRefund[] {
    return Object.values(this.data.refunds ?? {}).filter((r) => r.acquirerRef === acquirerRef);
  }

  refundsOfDevice(deviceId: string): SandboxRefund[] {
    return Object.values(this.data.refunds ?? {}).filter((r) => r.deviceId === deviceId);
  }

  pendingRefunds(): SandboxRefund[] {
    return Object.values(this.data.refunds ?? {}).filter((r) => r.state === 'PENDING');
  }

  dispute(disputeId: string): SandboxDispute | undefined {
    return this.data.disputes?.[disputeId];
  }

  addDispute(d: SandboxDispute): void {
    (this.data.disputes ??= dict())[d.disputeId] = d;
  }

  disputesOfDevice(deviceId: string): SandboxDispute[] {
    return Object.values(this.data.disputes ?? {}).filter((d) => d.deviceId === deviceId);
  }

  /** Submitted disputes the scheme has not decided yet. */
  disputesUnderReview(): SandboxDispute[] {
    return Object.values(this.data.disputes ?? {}).filter((d) => d.status === 'UNDER_REVIEW');
  }

  /** The bill the service sent with this pspReference (a scan: the control endpoint is rare). */
  billByPspReference(pspReference: string): Bill | undefined {
    return Object.values(this.data.bills).find((b) => b.pspReference === pspReference);
  }

  pendingReversals(): Reversal[] {
    return Object.values(this.data.voids).filter((v) => v.state === 'PENDING');
  }

  /**
   * Persists the records given (changed in memory by the caller); resolves once a write that
   * includes them is on disk. Without records, the whole state is written.
   */
  save(...records: StateRecord[]): Promise<void> {
    if (records.length === 0) this.journalLines = Number.POSITIVE_INFINITY;
    for (const r of records) this.changed.add(r);
    if (!this.queued) {
      const next = this.last
        .catch(() => undefined)
        .then(() => {
          this.queued = null; // changes from now on need another write
          return this.writeNow();
        });
      this.queued = next;
      this.last = next;
    }
    return this.queued;
  }

  private async writeNow(): Promise<void> {
    const records = [...this.changed];
    this.changed.clear();
    await fs.mkdir(path.dirname(this.file), { recursive: true });
    if (this.journalLines >= JOURNAL_COMPACT_LINES) {
      const tmp = `${this.file}.${process.pid}.${++this.tmpCounter}.tmp`;
      await fs.writeFile(tmp, JSON.stringify(this.data), 'utf8');
      await fs.rename(tmp, this.file); // atomic: a reader or a crash sees the old file or the new one
      await fs.writeFile(this.journalFile, '', 'utf8'); // replaying it onto the new file would change nothing
      this.journalLines = 0;
      return;
    }
    const line: JournalLine = {};
    for (const r of records) {
      if ('payoutId' in r) (line.payouts ??= []).push(r);
      else if ('payoutOutcome' in r) (line.accounts ??= []).push(r);
      else if ('disputeId' in r) (line.disputes ??= []).push(r);
      else if ('voidReference' in r) (line.voids ??= []).push(r);
      else if ('refundReference' in r) (line.refunds ??= []).push(r);
      else if ('paymentId' in r) (line.bills ??= []).push(r);
      else (line.devices ??= []).push(r);
    }
    await fs.appendFile(this.journalFile, `${JSON.stringify(line)}\n`, 'utf8');
    this.journalLines++;
  }

  private prune(now: number): void {
    for (const bill of Object.values(this.data.bills)) {
      const left = bill.decidedAt ? Date.parse(bill.decidedAt) : NaN;
      const unreported = bill.state === 'CAPTURED' && !bill.voided && !bill.reportedIn;
      if (bill.state !== 'WAITING' && !unreported && now - left > (bill.state === 'CAPTURED' ? CAPTURED_RETENTION_MS : RETENTION_MS)) {
        delete this.data.bills[bill.acquirerRef];
        for (const device of Object.values(this.data.devices)) if (device.lastBillRef === bill.acquirerRef) device.lastBillRef = null;
      }
    }
    for (const r of Object.values(this.data.voids)) if (!this.data.bills[r.acquirerRef]) delete this.data.voids[r.voidReference];
    for (const r of Object.values(this.data.refunds ?? {})) if (!this.data.bills[r.acquirerRef]) delete this.data.refunds![r.refundReference];
    for (const d of Object.values(this.data.disputes ?? {})) if (!this.data.bills[d.acquirerRef]) delete this.data.disputes![d.disputeId];
    for (const [key, r] of Object.entries(this.data.reports ?? {})) if (now - Date.parse(r.closedAt) > REPORT_RETENTION_MS) delete this.data.reports![key];
  }
}

const paymentKey = (deviceId: string, paymentId: string): string => `${deviceId}\u0000${paymentId}`;

/**
 * Each MID's batch references are its own. SANDBOX keeps the key reports had before MIDs
 * existed, so a stored report still answers a retried close; other MIDs' keys are JSON arrays
 * (a device id never starts with `[`), unambiguous whatever characters a MID holds.
 */
const reportKey = (deviceId: string, merchantAccountId: string, batchReference: string): string =>
  merchantAccountId === SANDBOX_MID ? `${deviceId} ${batchReference}` : JSON.stringify([deviceId, merchantAccountId, batchReference]);
