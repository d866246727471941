import Decimal from 'decimal.js';
import { SUPPORTED_CURRENCIES } from '../../../src/money/currencies';
import type { StandInDispute } from './disputes';
import type { SimulatedDevice, StandInReversal, StandInTransaction } from './terminals';

/**
 * Adyen's report downloads (`GET /reports/download/MerchantAccount/{merchantAccount}/{fileName}`
 * on the Customer Area host), as the stand-in serves them: the daily Payment accounting report
 * `payments_accounting_report_YYYY_MM_DD.csv`, built on request from the stand-in's own
 * transactions and reversals of that merchant account, with the additional `Unique Terminal Id` column.
 *
 * The stand-in's books (docs/acquirers.md, "Adyen: settlement"):
 * - its account's time zone is Europe/Amsterdam (TimeZone `CET` or `CEST`), so a day's file holds
 *   the bookings of that local day; a day that has not begun there has no file yet (404);
 * - an approved one-step payment is booked `Authorised` and `Settled` when the customer paid;
 *   a voided one `Cancelled` when voided, and never settles; a pre-authorisation is not settled
 *   (completion is not simulated here);
 * - a referenced refund is booked `SentForRefund` and `Refunded` when the terminal reversed it,
 *   under the payment's Psp and Merchant Reference, its own reference as the Modification Merchant Reference;
 * - fees of a Settled line: interchange 0.80 %, scheme fees 0.20 %, markup 0.30 % of the amount,
 *   each rounded half up to the currency's minor unit, and a commission of 10 minor units; refunds carry none;
 * - a chargeback is booked `Chargeback` when the bank opens it (the disputed amount debited, with a
 *   chargeback fee of 200 minor units as markup) and, once the scheme decides it won,
 *   `ChargebackReversed` (the amount credited back, no fee), each under the payment's Psp and
 *   Merchant Reference with the dispute's pspReference as the Modification Psp Reference; a lost
 *   one stays debited; a won one the issuer charges back again is booked `SecondChargeback` then
 *   (debited again, with the same fee).
 */
export const REPORT_TIME_ZONE = 'Europe/Amsterdam';
export const REPORT_PREFIX = '/reports/download/MerchantAccount/';

export type ReportPath =
  | { kind: 'payments-accounting'; merchantAccount: string; fileName: string; date: string }
  | { kind: 'unknown'; merchantAccount: string; fileName: string }
  | { kind: 'malformed'; error: string };

const MID = /^[A-Za-z0-9_-]{1,80}$/;
const FILE = /^[a-z0-9_]{1,120}\.csv$/;
const DAILY = /^payments_accounting_report_(\d{4})_(\d{2})_(\d{2})\.csv$/;

/** A report download's path checked; null when the path is not a report download at all. */
export function reportPathOf(method: string, pathname: string, rawBody: string): ReportPath | null {
  if (!pathname.startsWith('/reports/')) return null;
  if (method !== 'GET') return { kind: 'malformed', error: `${method} is not allowed on a report download (GET only)` };
  if (rawBody.length) return { kind: 'malformed', error: 'a report download takes no body' };
  if (!pathname.startsWith(REPORT_PREFIX)) return { kind: 'malformed', error: `not a report download path: ${pathname}` };
  const parts = pathname.slice(REPORT_PREFIX.length).split('/');
  if (parts.length !== 2) return { kind: 'malformed', error: `a report download names a merchant account and one file: ${pathname}` };
  const [merchantAccount, fileName] = parts.map((p) => decodeURIComponent(p));
  if (!MID.test(merchantAccount)) return { kind: 'malformed', error: `not a merchant account: ${merchantAccount}` };
  if (!FILE.test(fileName)) return { kind: 'malformed', error: `not a report file name: ${fileName}` };
  const daily = DAILY.exec(fileName);
  if (!daily) return { kind: 'unknown', merchantAccount, fileName };
  const date = `${daily[1]}-${daily[2]}-${daily[3]}`;
  if (new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date) return { kind: 'malformed', error: `not a calendar date: ${fileName}` };
  return { kind: 'payments-accounting', merchantAccount, fileName, date };
}

const local = new Intl.DateTimeFormat('sv-SE', {
  timeZone: REPORT_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** An instant as the account's Booking Date and TimeZone code: `2026-11-26 14:03:09`, `CET`. */
export function bookingOf(iso: string): { bookingDate: string; timeZone: string; date: string } {
  const at = new Date(iso);
  at.setUTCMilliseconds(0);
  const bookingDate = local.format(at);
  const offset = (Date.parse(bookingDate.replace(' ', 'T') + 'Z') - at.getTime()) / 60_000;
  return { bookingDate, timeZone: offset === 120 ? 'CEST' : 'CET', date: bookingDate.slice(0, 10) };
}

/** Today in the account's time zone: later days have no report yet. */
export const reportToday = (now = new Date()): string => bookingOf(now.toISOString()).date;

const minorUnits = (currency: string) => SUPPORTED_CURRENCIES[currency]?.minorUnits ?? 2;

/** The stand-in's fee rule for a settled amount. */
export function feesOf(amount: number, currency: string) {
  const units = minorUnits(currency);
  const gross = new Decimal(String(amount));
  const part = (percent: string) => gross.times(percent).dividedBy(100).toDecimalPlaces(units, Decimal.ROUND_HALF_UP);
  const interchange = part('0.80');
  const schemeFees = part('0.20');
  const markup = part('0.30');
  const commission = new Decimal(10).dividedBy(10 ** units);
  const total = interchange.plus(schemeFees).plus(markup).plus(commission);
  const fixed = (d: Decimal) => d.toFixed(units);
  return {
    interchange: fixed(interchange),
    schemeFees: fixed(schemeFees),
    markup: fixed(markup),
    commission: fixed(commission),
    total: fixed(total),
    payable: fixed(gross.minus(total)),
  };
}

export const REPORT_COLUMNS = [
  'Company Account',
  'Merchant Account',
  'Psp Reference',
  'Merchant Reference',
  'Payment Method',
  'Booking Date',
  'TimeZone',
  'Main Currency',
  'Main Amount',
  'Record Type',
  'Payment Currency',
  'Received (PC)',
  'Authorised (PC)',
  'Captured (PC)',
  'Settlement Currency',
  'Payable (SC)',
  'Commission (SC)',
  'Markup (SC)',
  'Scheme Fees (SC)',
  'Interchange (SC)',
  'Processing Fee Currency',
  'Processing Fee (FC)',
  'User Name',
  'Payment Method Variant',
  'Modification Merchant Reference',
  'Modification Psp Reference',
  'Unique Terminal Id',
] as const;
type Column = (typeof REPORT_COLUMNS)[number];
type Line = Partial<Record<Column, string>> & { at: string };

const COMPANY = 'IspStandInCompany';

function paymentLines(tx: StandInTransaction, voided: StandInReversal | undefined): Line[] {
  const amount = new Decimal(String(tx.amount)).toFixed(minorUnits(tx.currency));
  const common = {
    'Psp Reference': tx.pspReference,
    'Merchant Reference': tx.saleTransactionId.TransactionID,
    'Payment Method': tx.card?.brand ?? 'mc',
    'Main Currency': tx.currency,
    'Main Amount': amount,
    'Payment Currency': tx.currency,
    'Payment Method Variant': `${tx.card?.brand ?? 'mc'}credit`,
    'Unique Terminal Id': tx.poiid,
  };
  const lines: Line[] = [{ ...common, at: tx.decidedAt!, 'Record Type': 'Authorised', 'Authorised (PC)': amount }];
  if (voided) return [...lines, { ...common, at: voided.at, 'Record Type': 'Cancelled', 'Authorised (PC)': `-${amount}` }];
  const fees = feesOf(tx.amount, tx.currency);
  lines.push({
    ...common,
    at: tx.decidedAt!,
    'Record Type': 'Settled',
    'Captured (PC)': `-${amount}`,
    'Settlement Currency': tx.currency,
    'Payable (SC)': fees.payable,
    'Commission (SC)': fees.commission,
    'Markup (SC)': fees.markup,
    'Scheme Fees (SC)': fees.schemeFees,
    'Interchange (SC)': fees.interchange,
  });
  return lines;
}

function refundLines(rev: StandInReversal, tx: StandInTransaction | undefined): Line[] {
  const amount = new Decimal(String(rev.amount)).toFixed(minorUnits(rev.currency));
  const common = {
    'Psp Reference': rev.originalPsp,
    'Merchant Reference': rev.merchantReference,
    'Payment Method': tx?.card?.brand ?? 'mc',
    'Main Currency': rev.currency,
    'Main Amount': amount,
    'Payment Currency': rev.currency,
    'Modification Merchant Reference': rev.reference,
    'Unique Terminal Id': rev.poiid,
    at: rev.at,
  };
  return [
    { ...common, 'Record Type': 'SentForRefund' },
    { ...common, 'Record Type': 'Refunded', 'Settlement Currency': rev.currency, 'Payable (SC)': `-${amount}` },
  ];
}

/** The stand-in's chargeback fee, in minor units of the dispute's currency. */
export const CHARGEBACK_FEE_MINOR = 200;

function chargebackLines(d: StandInDispute): Line[] {
  const units = minorUnits(d.currency);
  const amount = new Decimal(String(d.amount));
  const fee = new Decimal(CHARGEBACK_FEE_MINOR).dividedBy(10 ** units);
  const common = {
    'Psp Reference': d.tx.pspReference,
    'Merchant Reference': d.tx.saleTransactionId.TransactionID,
    'Payment Method': d.tx.card?.brand ?? 'mc',
    'Main Currency': d.currency,
    'Main Amount': amount.toFixed(units),
    'Payment Currency': d.currency,
    'Settlement Currency': d.currency,
    'Payment Method Variant': `${d.tx.card?.brand ?? 'mc'}credit`,
    'Modification Psp Reference': d.pspReference,
    'Unique Terminal Id': d.tx.poiid,
  };
  const debit = (at: string, recordType: string): Line => ({
    ...common,
    at,
    'Record Type': recordType,
    'Payable (SC)': amount.plus(fee).negated().toFixed(units),
    'Markup (SC)': fee.toFixed(units),
  });
  const lines: Line[] = [debit(d.openedAt, 'Chargeback')];
  // Credited back when won; a second chargeback comes only after that credit.
  const won = d.status === 'Won' || d.secondChargebackAt !== undefined;
  if (won && d.decidedAt) lines.push({ ...common, at: d.decidedAt, 'Record Type': 'ChargebackReversed', 'Payable (SC)': amount.toFixed(units) });
  if (d.secondChargebackAt) lines.push(debit(d.secondChargebackAt, 'SecondChargeback'));
  return lines;
}

const cell = (v: string | undefined) => (v === undefined ? '' : /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** The day's Payment accounting report of one merchant account (CSV, CRLF lines as Adyen writes them). */
export function paymentsAccountingReport(
  devices: Iterable<SimulatedDevice>,
  merchantAccount: string,
  date: string,
  disputes: Iterable<StandInDispute> = [],
): string {
  const all = [...devices];
  const transactions = all.flatMap((d) => d.transactions);
  const reversals = all.flatMap((d) => d.reversals).filter((r) => r.merchantAccount === merchantAccount);
  const lines: Line[] = [];
  for (const tx of transactions) {
    if (tx.merchantAccount !== merchantAccount || tx.state !== 'APPROVED' || tx.preAuth) continue;
    lines.push(
      ...paymentLines(
        tx,
        reversals.find((r) => r.kind === 'void' && r.originalPsp === tx.pspReference),
      ),
    );
  }
  for (const rev of reversals) {
    if (rev.kind === 'refund')
      lines.push(
        ...refundLines(
          rev,
          transactions.find((t) => t.pspReference === rev.originalPsp),
        ),
      );
  }
  for (const d of disputes) if (d.merchantAccount === merchantAccount) lines.push(...chargebackLines(d));
  const rows = lines
    .map((l) => ({ ...l, ...bookingOf(l.at) }))
    .filter((l) => l.date === date)
    .sort((a, b) => a.bookingDate.localeCompare(b.bookingDate))
    .map((l) => {
      const values: Partial<Record<Column, string>> = {
        ...l,
        'Company Account': COMPANY,
        'Merchant Account': merchantAccount,
        'Booking Date': l.bookingDate,
        TimeZone: l.timeZone,
        'User Name': 'System',
      };
      return REPORT_COLUMNS.map((c) => cell(values[c])).join(',');
    });
  return [REPORT_COLUMNS.join(','), ...rows].join('\r\n') + '\r\n';
}
