import Decimal from 'decimal.js';
import { parse } from 'csv-parse/sync';
import { supportedMinorUnitsOf } from '../../money/currencies';
import { AcquirerRejectedError, type PaymentMode, type SettlementReportItem } from '../port';
import { billRefOf } from './references';

/**
 * The settlement report of an adyen account, as pure functions (docs/acquirers.md, "Adyen:
 * settlement"). Adyen's source is its daily Payment accounting report
 * (`payments_accounting_report_YYYY_MM_DD.csv`, one file per day in the account's time zone),
 * with the additional `Unique Terminal Id` column switched on: its `Settled` and `Refunded` records, with
 * their booking time, fees and the terminal that took them. A close of a terminal keeps that
 * terminal's records booked after `since` and up to `until`, so consecutive closes meet exactly.
 * The adapter (./adapter.ts, ./reports.ts) downloads the files; nothing here calls Adyen.
 */

/** The daily report's file name for a calendar date (`2026-11-26` -> `payments_accounting_report_2026_11_26.csv`). */
export const reportFileOf = (date: string): string => `payments_accounting_report_${date.replace(/-/g, '_')}.csv`;

/** Where Adyen serves a merchant account's report files (the Customer Area's download path, API key in x-api-key). */
export const REPORT_HOSTS = { TEST: 'https://ca-test.adyen.com', LIVE: 'https://ca-live.adyen.com' } as const;
export const reportUrlOf = (environment: 'TEST' | 'LIVE', merchantAccount: string, fileName: string): string =>
  `${REPORT_HOSTS[environment]}/reports/download/MerchantAccount/${encodeURIComponent(merchantAccount)}/${fileName}`;

/** A first close of a terminal (no earlier close to start from) looks back this many days. */
export const FIRST_CLOSE_LOOKBACK_DAYS = 31;

const DAY_MS = 86_400_000;

/**
 * The bookings a close of (since, until] reads: the same period `lagHours` earlier. Adyen writes
 * a day's report the morning after (about 04:00 CET), so a period that ended at the close would
 * miss what its last day's file does not hold yet, and the next close would not look there again;
 * a constant lag keeps consecutive closes meeting exactly while every file read already exists.
 */
export function reportPeriodOf(until: string, since: string | null | undefined, lagHours: number): { since: string | null; until: string } {
  const earlier = (iso: string) => new Date(Date.parse(iso) - lagHours * 3_600_000).toISOString();
  return { since: since ? earlier(since) : null, until: earlier(until) };
}
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The report dates that can hold a booking in (since, until]: a report's day is the account's
 * local day, at most 14 hours off UTC, so one day either side of the period's UTC dates.
 */
export function reportDatesOf(until: string, since: string | null | undefined): string[] {
  const end = Date.parse(until);
  const start = since ? Date.parse(since) : end - FIRST_CLOSE_LOOKBACK_DAYS * DAY_MS;
  if (!Number.isFinite(end) || !Number.isFinite(start)) throw new RangeError(`not a period: (${since}, ${until}]`);
  const dates: string[] = [];
  for (let day = Date.parse(dateOf(start)) - DAY_MS; day <= Date.parse(dateOf(end)) + DAY_MS; day += DAY_MS) dates.push(dateOf(day));
  return dates;
}

/** One line of the report, by column name. */
export type ReportRow = Record<string, string>;

/**
 * The columns the mapping reads, named as Adyen names them: the Payment accounting report's
 * standard columns (docs.adyen.com/reporting/invoice-reconciliation/payment-accounting-report), and
 * `Unique Terminal Id`, an additional column Adyen adds on request: the terminal's unique id, "the
 * POIID in the MessageHeader of your Terminal API requests" (Adyen's description of the column in
 * its terminal reports, docs.adyen.com/reporting/your-payment-terminals). docs/acquirers.md,
 * "Adyen: settlement", names the sources of every column.
 */
export const COLUMNS = {
  merchantAccount: 'Merchant Account',
  pspReference: 'Psp Reference',
  merchantReference: 'Merchant Reference',
  paymentMethod: 'Payment Method',
  bookingDate: 'Booking Date',
  timeZone: 'TimeZone',
  mainCurrency: 'Main Currency',
  mainAmount: 'Main Amount',
  recordType: 'Record Type',
  settlementCurrency: 'Settlement Currency',
  commission: 'Commission (SC)',
  markup: 'Markup (SC)',
  schemeFees: 'Scheme Fees (SC)',
  interchange: 'Interchange (SC)',
  modificationMerchantReference: 'Modification Merchant Reference',
  terminalId: 'Unique Terminal Id',
} as const;

/** Read when the file has it: a chargeback's own PSP reference (the dispute's), which only chargeback lines need. */
export const MODIFICATION_PSP_REFERENCE = 'Modification Psp Reference';

const REQUIRED = Object.values(COLUMNS);
/** Header names as Adyen spells them, compared without case or spaces ("Unique Terminal Id", "UNIQUE TERMINAL ID"). */
const norm = (name: string) => name.replace(/\s+/g, '').toLowerCase();

/**
 * The CSV file as rows keyed by Adyen's column names. A file without a column we read is refused
 * (AcquirerRejectedError): the account's report must be set up as docs/acquirers.md says; the close
 * asks again until it is (activities/settlement/index.ts).
 */
export function parseReport(csv: string, fileName = 'the report'): ReportRow[] {
  const records: string[][] = parse(csv, { bom: true, skip_empty_lines: true, relax_column_count: true, trim: true });
  if (records.length === 0) return [];
  const header = records[0];
  const index = new Map(header.map((h, i) => [norm(h), i]));
  const missing = REQUIRED.filter((c) => !index.has(norm(c)));
  if (missing.length) {
    throw new AcquirerRejectedError(
      `adyen's ${fileName} lacks the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (add ${missing.includes(COLUMNS.terminalId) ? 'the additional Unique Terminal Id column ' : 'them '}to the Payment accounting report at Adyen)`,
      422,
    );
  }
  const read = index.has(norm(MODIFICATION_PSP_REFERENCE)) ? [...REQUIRED, MODIFICATION_PSP_REFERENCE] : REQUIRED;
  return records.slice(1).map((cells) => Object.fromEntries(read.map((c) => [c, cells[index.get(norm(c))!] ?? ''])));
}

/**
 * Offsets of the time-zone codes Adyen writes in `TimeZone` (the account's setting, summer or
 * winter code), in minutes east of UTC. An unknown code is refused rather than guessed.
 */
const ZONES: Record<string, number> = {
  UTC: 0,
  GMT: 0,
  WET: 0,
  WEST: 60,
  BST: 60,
  IST: 60,
  CET: 60,
  CEST: 120,
  MET: 60,
  MEST: 120,
  EET: 120,
  EEST: 180,
  MSK: 180,
  GST: 240,
  SGT: 480,
  HKT: 480,
  AWST: 480,
  JST: 540,
  KST: 540,
  AEST: 600,
  AEDT: 660,
  NZST: 720,
  NZDT: 780,
  BRT: -180,
  ART: -180,
  EST: -300,
  EDT: -240,
  CDT: -300,
  MST: -420,
  MDT: -360,
  PST: -480,
  PDT: -420,
  AKST: -540,
  AKDT: -480,
  HST: -600,
};

function offsetOf(zone: string): number {
  const code = zone.trim().toUpperCase();
  if (code in ZONES) return ZONES[code];
  const numeric = /^(?:UTC|GMT)?([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(code);
  if (numeric) return (numeric[1] === '-' ? -1 : 1) * (Number(numeric[2]) * 60 + Number(numeric[3] ?? 0));
  throw new AcquirerRejectedError(`adyen's report names a time zone we do not know: ${zone}`, 422);
}

/** `2026-11-26 14:03:09` in `CET` -> `2026-11-26T13:03:09.000Z`. */
export function bookedAtOf(bookingDate: string, timeZone: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/.exec(bookingDate.trim());
  if (!m) throw new AcquirerRejectedError(`adyen's report has a booking date we cannot read: ${bookingDate}`, 422);
  const local = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
  return new Date(local - offsetOf(timeZone) * 60_000).toISOString();
}

const minorUnitsOf = (currency: string): number =>
  supportedMinorUnitsOf(
    currency,
    () => new AcquirerRejectedError(`adyen's report has an amount in ${currency || 'no currency'}, which the service does not take`, 422),
  );

/** A report amount ("12.5", "-3.00", "") as an exact positive decimal of the currency ("12.50"). */
function amountOf(text: string, currency: string): string {
  const value = text.trim() === '' ? new Decimal(0) : new Decimal(text.trim().replace(/,/g, ''));
  return value.abs().toFixed(minorUnitsOf(currency));
}

/** Wallets paid by QR code at the terminal; any other method is a card. */
const QR_WALLETS = new Set([
  'alipay',
  'alipay_hk',
  'wechatpay',
  'wechatpay_pos',
  'paypay',
  'gcash',
  'dana',
  'kakaopay',
  'twint',
  'bizum',
  'swish',
  'mobilepay',
  'vipps',
]);

function methodOf(paymentMethod: string): { paymentMethod: PaymentMode; cardBrand?: string } {
  const method = paymentMethod.trim();
  if (!method) return { paymentMethod: 'CARD' };
  if (QR_WALLETS.has(method.toLowerCase())) return { paymentMethod: 'QR_CODE' };
  // Brand as the terminal's answer shows it (mapping.ts cardOf: "mc" -> "MC").
  return { paymentMethod: 'CARD', cardBrand: method.toUpperCase() };
}

/** Our capture of a two-step payment (workflows/payment/twoStep.ts): `CAPTURE-<pspReference>`. */
const CAPTURE_PREFIX = 'CAPTURE-';

export interface SettlementScope {
  /** The account's MID: a report may hold other merchant accounts' lines. */
  merchantAccount: string;
  /** The terminal (POIID) whose lines the close wants. */
  deviceId: string;
  /** The close's period (since, until]; since null: from the first report fetched. */
  since: string | null | undefined;
  until: string;
}

/**
 * Which bookings a close of (since, until] reports. Adyen books in whole seconds, so a booking at
 * second b may stand for any instant of that second: the close takes the seconds from since's up
 * to, not including, until's, `[floor(since), floor(until))`. Consecutive closes meet exactly,
 * and a booking in until's own second (perhaps made after this close read the file) is the next
 * close's, never lost.
 */
export function inPeriod(bookedAt: string, since: string | null | undefined, until: string): boolean {
  const second = (iso: string) => Math.floor(Date.parse(iso) / 1000);
  const b = second(bookedAt);
  return (since ? b >= second(since) : true) && b < second(until);
}

/**
 * The record types that are settlement items: `Settled` a payment Adyen paid out, `Refunded` a
 * refund; a dispute's money (docs/disputes.md, "Settlement: the dispute's money"): `Chargeback` and `SecondChargeback` debit the disputed
 * amount, `ChargebackReversed` credits it back. Every other type (the payment's earlier stages,
 * cancellations, fees, payouts, and the Adyen for Platforms corrections) has no item here.
 */
export const ITEM_OF_RECORD_TYPE: Readonly<Record<string, SettlementReportItem['type']>> = {
  Settled: 'PAYMENT',
  Refunded: 'REFUND',
  Chargeback: 'CHARGEBACK',
  SecondChargeback: 'CHARGEBACK',
  ChargebackReversed: 'CHARGEBACK_REVERSAL',
};

/**
 * The report's lines of one terminal and period as the port's items: a payment's fee is
 * commission + markup + scheme fees + interchange, a chargeback's the same columns (Adyen's
 * chargeback fee), a refund has none (the port charges none to refunds). A payment's Merchant
 * Reference is our payment id (the PaymentRequest's SaleTransactionID); a settled capture of ours
 * (Modification Merchant Reference `CAPTURE-...`) was a two-step payment, so its acquirerRef is the
 * pre-authorisation's. A chargeback names its dispute by its Modification Psp Reference, the
 * pspReference of Adyen's chargeback notifications (./disputes.ts).
 */
export function settlementItemsOfReport(rows: ReportRow[], scope: SettlementScope): SettlementReportItem[] {
  const items: SettlementReportItem[] = [];
  for (const row of rows) {
    const type = Object.hasOwn(ITEM_OF_RECORD_TYPE, row[COLUMNS.recordType]) ? ITEM_OF_RECORD_TYPE[row[COLUMNS.recordType]] : null;
    if (!type || row[COLUMNS.terminalId] !== scope.deviceId || row[COLUMNS.merchantAccount] !== scope.merchantAccount) continue;
    const occurredAt = bookedAtOf(row[COLUMNS.bookingDate], row[COLUMNS.timeZone]);
    if (!inPeriod(occurredAt, scope.since, scope.until)) continue;
    items.push(itemOf(row, type, occurredAt));
  }
  return items;
}

/**
 * A chargeback row's booking key. The report has no id of its own per row: `Psp Reference` is the
 * payment's and `Modification Psp Reference` the dispute's, shared by all of the dispute's rows
 * (Chargeback, ChargebackReversed, SecondChargeback). The record type tells those apart, and the
 * booking time (UTC, to the second, as Adyen books) a stage booked again, so the same row read
 * twice has the same key and each booking its own: `SecondChargeback:<dispute>:2026-11-26T13:03:09.000Z`.
 */
export const bookingRefOf = (recordType: string, disputePspReference: string, bookedAt: string): string => `${recordType}:${disputePspReference}:${bookedAt}`;

function itemOf(row: ReportRow, type: SettlementReportItem['type'], occurredAt: string): SettlementReportItem {
  const currency = row[COLUMNS.mainCurrency].toUpperCase();
  const settlementCurrency = (row[COLUMNS.settlementCurrency] || currency).toUpperCase();
  const paymentId = row[COLUMNS.merchantReference];
  const modification = row[COLUMNS.modificationMerchantReference];
  if (!paymentId)
    throw new AcquirerRejectedError(`adyen's report has a ${row[COLUMNS.recordType]} line without a Merchant Reference (${row[COLUMNS.pspReference]})`, 422);
  if (settlementCurrency !== currency) {
    // The port states a line's fee in the payment's currency; Adyen's fees are in the settlement currency.
    throw new AcquirerRejectedError(
      `adyen's report settles ${row[COLUMNS.pspReference]} in ${settlementCurrency}, not its currency ${currency}: not supported`,
      422,
    );
  }
  const twoStep = type === 'PAYMENT' && modification.startsWith(CAPTURE_PREFIX);
  const fee = [COLUMNS.commission, COLUMNS.markup, COLUMNS.schemeFees, COLUMNS.interchange].reduce(
    (sum, column) => sum.plus(amountOf(row[column], currency)),
    new Decimal(0),
  );
  const item: SettlementReportItem = {
    type,
    acquirerRef: billRefOf({ paymentId, twoStep }),
    paymentId,
    amount: amountOf(row[COLUMNS.mainAmount], currency),
    currency,
    feeAmount: type === 'REFUND' ? new Decimal(0).toFixed(minorUnitsOf(currency)) : fee.toFixed(minorUnitsOf(currency)),
    occurredAt,
  };
  if (twoStep) item.pspReference = modification.slice(CAPTURE_PREFIX.length);
  if (type === 'CHARGEBACK' || type === 'CHARGEBACK_REVERSAL') {
    const dispute = row[MODIFICATION_PSP_REFERENCE];
    if (!dispute)
      throw new AcquirerRejectedError(
        `adyen's report has a ${row[COLUMNS.recordType]} line of ${row[COLUMNS.pspReference]} without its dispute (add the Modification Psp Reference column to the Payment accounting report at Adyen)`,
        422,
      );
    item.disputeId = dispute;
    item.bookingRef = bookingRefOf(row[COLUMNS.recordType], dispute, occurredAt);
  } else if (type === 'REFUND') {
    if (!modification)
      throw new AcquirerRejectedError(`adyen's report has a Refunded line without its Modification Merchant Reference (${row[COLUMNS.pspReference]})`, 422);
    item.refundReference = modification;
  } else {
    Object.assign(item, methodOf(row[COLUMNS.paymentMethod]));
  }
  return item;
}
