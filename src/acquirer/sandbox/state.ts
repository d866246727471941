import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BillState, PaymentMode, SettlementReport, VoidState } from '../port';

/**
 * The sandbox acquirer's memory: devices, bills and reversals, kept as one JSON file in
 * `<dataDir>/sandbox/state.json` so that a restart finds a bill still on its device, as a real
 * acquirer would. The in-memory copy is the truth while running; every change is followed by
 * save(), which writes the whole file atomically (temp file + rename) and coalesces concurrent
 * saves into one write.
 */
export const ALL_MODES: PaymentMode[] = ['CARD', 'QR_CODE'];

export interface DeviceSettings {
  modes: PaymentMode[];
  twoStep: boolean;
  voidSupported: boolean;
  reachable: boolean;
  latencyMs: number;
  voidConfirmDelayMs: number;
  /** Acquirer references the next settlement report leaves out (contracts 8). */
  omitFromReport: string[];
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
  paymentId: string;
  pspReference: string;
  amount: string; // exact decimal, never a float
  currency: string;
  reference: string | null;
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
  /** Taken on the device outside the service (contracts 8 offline payment). */
  offline?: boolean;
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

interface StateFile {
  version: 1;
  devices: Record<string, Device>;
  bills: Record<string, Bill>;
  voids: Record<string, Reversal>;
  /** Settlement reports by `<deviceId> <batchReference>`, so a retried close answers the same report. */
  reports?: Record<string, SettlementReport>;
}

export const DEFAULT_SETTINGS: DeviceSettings = {
  modes: [...ALL_MODES],
  twoStep: false,
  voidSupported: true,
  reachable: true,
  latencyMs: 0,
  voidConfirmDelayMs: 0,
  omitFromReport: [],
};

/** Bills that left their device longer ago than this are dropped at load (well past the void window), unless still to be reported. */
const RETENTION_MS = 48 * 3600 * 1000;
/** Settlement reports are kept this long for retried closes. */
const REPORT_RETENTION_MS = 14 * 24 * 3600 * 1000;

export class SandboxStore {
  readonly file: string;
  private data: StateFile = { version: 1, devices: {}, bills: {}, voids: {} };
  /** A write queued but not started yet: later changes join it instead of queuing another. */
  private queued: Promise<void> | null = null;
  private last: Promise<void> = Promise.resolve();
  private tmpCounter = 0;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'sandbox', 'state.json');
  }

  /** Reads the file if there is one. A damaged file stops the start rather than losing bills silently. */
  load(now = Date.now()): void {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    let parsed: StateFile;
    try {
      parsed = JSON.parse(text) as StateFile;
    } catch (err) {
      throw new Error(`sandbox state file ${this.file} is not valid JSON: ${(err as Error).message}`);
    }
    if (parsed?.version !== 1 || typeof parsed.devices !== 'object' || typeof parsed.bills !== 'object') {
      throw new Error(`sandbox state file ${this.file} has an unknown format`);
    }
    this.data = { version: 1, devices: parsed.devices, bills: parsed.bills, voids: parsed.voids ?? {}, reports: parsed.reports ?? {} };
    this.prune(now);
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
  }

  /** A bill for this payment already sent to this device (makes send-bill safe to retry). */
  billForPayment(deviceId: string, paymentId: string): Bill | undefined {
    return Object.values(this.data.bills).find((b) => b.deviceId === deviceId && b.paymentId === paymentId);
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

  report(deviceId: string, batchReference: string): SettlementReport | undefined {
    return this.data.reports?.[`${deviceId} ${batchReference}`];
  }

  addReport(r: SettlementReport): void {
    (this.data.reports ??= {})[`${r.deviceId} ${r.batchReference}`] = r;
  }

  pendingReversals(): Reversal[] {
    return Object.values(this.data.voids).filter((v) => v.state === 'PENDING');
  }

  /** Writes the current state; resolves once a write that includes every change made so far is on disk. */
  save(): Promise<void> {
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
    const text = JSON.stringify(this.data);
    await fs.mkdir(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.${++this.tmpCounter}.tmp`;
    await fs.writeFile(tmp, text, 'utf8');
    await fs.rename(tmp, this.file); // atomic: a reader or a crash sees the old file or the new one
  }

  private prune(now: number): void {
    for (const bill of Object.values(this.data.bills)) {
      const left = bill.decidedAt ? Date.parse(bill.decidedAt) : NaN;
      const unreported = bill.state === 'CAPTURED' && !bill.voided && !bill.reportedIn;
      if (bill.state !== 'WAITING' && !unreported && now - left > RETENTION_MS) {
        delete this.data.bills[bill.acquirerRef];
        for (const device of Object.values(this.data.devices)) if (device.lastBillRef === bill.acquirerRef) device.lastBillRef = null;
      }
    }
    for (const r of Object.values(this.data.voids)) if (!this.data.bills[r.acquirerRef]) delete this.data.voids[r.voidReference];
    for (const [key, r] of Object.entries(this.data.reports ?? {})) if (now - Date.parse(r.closedAt) > REPORT_RETENTION_MS) delete this.data.reports![key];
  }
}
