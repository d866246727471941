import { AcquirerRejectedError, AcquirerUnreachableError } from '../../../src/acquirer/port';
import { AdyenAcquirer } from '../../../src/acquirer/adyen/adapter';
import {
  bookedAtOf,
  parseReport,
  reportDatesOf,
  reportFileOf,
  reportPeriodOf,
  reportUrlOf,
  settlementItemsOfReport,
} from '../../../src/acquirer/adyen/settlement';
import { type AdyenStandIn, startAdyenStandIn } from '../../support/adyenStandIn';
import { reportToday } from '../../support/adyenStandIn/reports';

/**
 * The adyen settlement report (docs/acquirers.md, "Adyen: settlement"): Adyen's daily Payment
 * accounting report, its Settled and Refunded lines of one terminal booked in the close's period.
 */
const MID = 'IspShopPOS';
const A = 'V400m-324688179';
const B = 'P400Plus-275039202';

/** A day of a Payment accounting report as Adyen writes it (standard columns, then the additional Unique Terminal Id). */
const HEADER =
  'Company Account,Merchant Account,Psp Reference,Merchant Reference,Payment Method,Booking Date,TimeZone,Main Currency,Main Amount,Record Type,Payment Currency,Received (PC),Authorised (PC),Captured (PC),Settlement Currency,Payable (SC),Commission (SC),Markup (SC),Scheme Fees (SC),Interchange (SC),Processing Fee Currency,Processing Fee (FC),User Name,Payment Method Variant,Modification Merchant Reference,Reserved3,Reserved4,Reserved5,Reserved6,Reserved7,Reserved8,Reserved9,Reserved10,Unique Terminal Id';
const line = (cells: string) => `IspCompany,${cells}`;
const CSV = [
  HEADER,
  // pay_1 on A: the lifecycle's records; only Settled is a settlement line.
  line(`${MID},8815329842815468,pay_1,visa,2026-11-26 09:58:02,CET,EUR,12.50,Received,EUR,12.50,,,,,,,,,,,System,visadebit,,,,,,,,,,${A}`),
  line(`${MID},8815329842815468,pay_1,visa,2026-11-26 09:58:03,CET,EUR,12.50,Authorised,EUR,-12.50,12.50,,,,,,,,,,System,visadebit,,,,,,,,,,${A}`),
  line(`${MID},8815329842815468,pay_1,visa,2026-11-26 09:58:03,CET,EUR,12.50,SentForSettle,EUR,,-12.50,12.50,,,,,,,,,System,visadebit,,,,,,,,,,${A}`),
  line(
    `${MID},8815329842815468,pay_1,visa,2026-11-26 10:00:00,CET,EUR,12.50,Settled,EUR,,,-12.50,EUR,12.23,0.10,0.04,0.03,0.10,,,System,visadebit,,,,,,,,,,${A}`,
  ),
  // pay_2 on B: another terminal's.
  line(`${MID},8815329842815999,pay_2,mc,2026-11-26 10:05:00,CET,EUR,20.00,Settled,EUR,,,-20.00,EUR,19.64,0.10,0.06,0.04,0.16,,,System,mccredit,,,,,,,,,,${B}`),
  // pay_3 on A: a two-step payment, settled through our capture (CAPTURE-<our pspReference>); fees written negative.
  line(
    `${MID},8815329842816000,pay_3,mc,2026-11-26 11:00:00,CET,EUR,30.00,Settled,EUR,,,-30.00,EUR,29.46,-0.10,-0.09,-0.06,-0.29,,,System,mccredit,CAPTURE-PSP3,,,,,,,,,${A}`,
  ),
  // A refund of pay_1 on A, our reference as the modification's.
  line(`${MID},8815329842815468,pay_1,visa,2026-11-26 12:00:00,CET,EUR,4.00,SentForRefund,EUR,,,,,,,,,,,,System,visadebit,REFUND-r1,,,,,,,,,${A}`),
  line(`${MID},8815329842815468,pay_1,visa,2026-11-26 12:00:01,CET,EUR,4.00,Refunded,EUR,,,,EUR,-4.00,,,,,,,System,visadebit,REFUND-r1,,,,,,,,,${A}`),
  // Types the port has no item for: a chargeback's notice (no money moved), a fee, a payout. Chargebacks: chargebacks.unit.test.ts.
  line(`${MID},8815329842816111,pay_4,visa,2026-11-26 13:00:00,CET,EUR,9.00,NotificationOfChargeback,EUR,,,,,,,,,,,,System,visadebit,,,,,,,,,,${A}`),
  line(`${MID},,,,2026-11-26 13:30:00,CET,EUR,,Fee,,,,,EUR,-2.00,,,,,,,System,,"Transaction Fees, November",,,,,,,,,`),
  line(`${MID},,,,2026-11-26 14:00:00,CET,EUR,,MerchantPayout,,,,,EUR,-100.00,,,,,,,System,,,,,,,,,,,`),
  // Another merchant account in the same file.
  line(
    `OtherMerchant,8815329842816222,pay_5,visa,2026-11-26 10:30:00,CET,EUR,5.00,Settled,EUR,,,-5.00,EUR,4.80,0.10,0.02,0.01,0.07,,,System,visadebit,,,,,,,,,,${A}`,
  ),
  // Booked after the period.
  line(`${MID},8815329842816333,pay_6,visa,2026-11-26 23:30:00,CET,EUR,7.00,Settled,EUR,,,-7.00,EUR,6.80,0.10,0.02,0.01,0.07,,,System,visadebit,,,,,,,,,,${A}`),
].join('\r\n');

const PERIOD = { merchantAccount: MID, since: '2026-11-25T22:00:00.000Z', until: '2026-11-26T20:00:00.000Z' };

describe('the mapping of the report', () => {
  it("a terminal's Settled and Refunded lines in the period: amounts, fees, our ids, the booking time in UTC", () => {
    const items = settlementItemsOfReport(parseReport(CSV), { ...PERIOD, deviceId: A });
    expect(items).toEqual([
      {
        type: 'PAYMENT',
        acquirerRef: 'pay_1',
        paymentId: 'pay_1',
        amount: '12.50',
        currency: 'EUR',
        feeAmount: '0.27',
        paymentMethod: 'CARD',
        cardBrand: 'VISA',
        occurredAt: '2026-11-26T09:00:00.000Z',
      },
      {
        type: 'PAYMENT',
        acquirerRef: 'pay_3:preauth',
        paymentId: 'pay_3',
        pspReference: 'PSP3',
        amount: '30.00',
        currency: 'EUR',
        feeAmount: '0.54',
        paymentMethod: 'CARD',
        cardBrand: 'MC',
        occurredAt: '2026-11-26T10:00:00.000Z',
      },
      {
        type: 'REFUND',
        acquirerRef: 'pay_1',
        paymentId: 'pay_1',
        refundReference: 'REFUND-r1',
        amount: '4.00',
        currency: 'EUR',
        feeAmount: '0.00',
        occurredAt: '2026-11-26T11:00:01.000Z',
      },
    ]);
  });

  it("another terminal's lines are its own", () => {
    const items = settlementItemsOfReport(parseReport(CSV), { ...PERIOD, deviceId: B });
    expect(items.map((i) => [i.type, i.paymentId, i.amount, i.feeAmount])).toEqual([['PAYMENT', 'pay_2', '20.00', '0.36']]);
  });

  it("consecutive periods meet exactly: a line booked in the cut's second belongs to the later one only", () => {
    const rows = parseReport(CSV);
    const cut = '2026-11-26T09:00:00.400Z'; // in pay_1's booking second, 10:00:00 CET
    const before = settlementItemsOfReport(rows, { ...PERIOD, deviceId: A, until: cut });
    const after = settlementItemsOfReport(rows, { ...PERIOD, deviceId: A, since: cut });
    expect(before.map((i) => i.paymentId)).toEqual([]);
    expect(after.map((i) => `${i.type} ${i.paymentId}`)).toEqual(['PAYMENT pay_1', 'PAYMENT pay_3', 'REFUND pay_1']);
    const justAfter = settlementItemsOfReport(rows, { ...PERIOD, deviceId: A, until: '2026-11-26T09:00:01.000Z' });
    expect(justAfter.map((i) => i.paymentId)).toEqual(['pay_1']);
    const later = settlementItemsOfReport(rows, { ...PERIOD, deviceId: A, since: PERIOD.until, until: '2026-11-27T00:00:00.000Z' });
    expect(later.map((i) => i.paymentId)).toEqual(['pay_6']);
  });

  it('booking times in summer time and numeric offsets; an unknown zone is refused, not guessed', () => {
    expect(bookedAtOf('2026-07-01 02:30:00', 'CEST')).toBe('2026-07-01T00:30:00.000Z');
    expect(bookedAtOf('2026-07-01 02:30:00', 'UTC')).toBe('2026-07-01T02:30:00.000Z');
    expect(bookedAtOf('2026-07-01 02:30:00', 'GMT-05:00')).toBe('2026-07-01T07:30:00.000Z');
    expect(() => bookedAtOf('2026-07-01 02:30:00', 'XYZ')).toThrow(/time zone we do not know: XYZ/);
    expect(() => bookedAtOf('01/07/2026 02:30', 'CET')).toThrow(AcquirerRejectedError);
  });

  it('a report without the Unique Terminal Id column is refused, saying what to set up at Adyen', () => {
    const withoutTerminal = CSV.split('\r\n')
      .map((l) => l.slice(0, l.lastIndexOf(',')))
      .join('\r\n');
    expect(() => parseReport(withoutTerminal, 'payments_accounting_report_2026_11_26.csv')).toThrow(
      expect.objectContaining({ status: 422, message: expect.stringMatching(/lacks the column Unique Terminal Id .*additional Unique Terminal Id column/) }),
    );
    // "Terminal ID" is not Adyen's name for the column (Adyen's is Unique Terminal Id): not read as it
    expect(() => parseReport(CSV.replace(',Unique Terminal Id\r\n', ',Terminal ID\r\n'))).toThrow(/lacks the column Unique Terminal Id/);
    // Adyen's name in any case or spacing is the column
    expect(parseReport(CSV.replace(',Unique Terminal Id\r\n', ',UNIQUE TERMINAL ID\r\n'))).toEqual(parseReport(CSV));
  });

  it('a header-only file has no lines; a JPY amount keeps no decimals', () => {
    expect(parseReport(HEADER + '\r\n')).toEqual([]);
    const jpy = line(`${MID},8815329842816444,pay_7,jcb,2026-11-26 10:00:00,JST,JPY,1500,Settled,JPY,,,-1500,JPY,1463,10,5,3,19,,,System,jcb,,,,,,,,,,${A}`);
    const [item] = settlementItemsOfReport(parseReport(`${HEADER}\r\n${jpy}`), { ...PERIOD, deviceId: A });
    expect(item).toMatchObject({ amount: '1500', feeAmount: '37', currency: 'JPY', occurredAt: '2026-11-26T01:00:00.000Z' });
  });

  it('a line settled in another currency than its own is refused (the port states fees in the payment currency)', () => {
    const usd = line(
      `${MID},8815329842816555,pay_8,visa,2026-11-26 10:00:00,CET,USD,10.00,Settled,USD,,,-10.00,EUR,9.00,0.10,0.02,0.01,0.07,,,System,visadebit,,,,,,,,,,${A}`,
    );
    expect(() => settlementItemsOfReport(parseReport(`${HEADER}\r\n${usd}`), { ...PERIOD, deviceId: A })).toThrow(/settles 8815329842816555 in EUR/);
  });
});

describe('the files asked for', () => {
  it("a period's days, one either side for the account's time zone; a first close looks back 31 days", () => {
    expect(reportDatesOf('2026-11-26T20:00:00.000Z', '2026-11-25T22:00:00.000Z')).toEqual(['2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27']);
    expect(reportDatesOf('2026-11-26T20:00:00.000Z', null)).toHaveLength(34);
    expect(reportPeriodOf('2026-11-26T20:00:00.000Z', '2026-11-25T20:00:00.000Z', 48)).toEqual({
      since: '2026-11-23T20:00:00.000Z',
      until: '2026-11-24T20:00:00.000Z',
    });
    expect(reportPeriodOf('2026-11-26T20:00:00.000Z', null, 0)).toEqual({ since: null, until: '2026-11-26T20:00:00.000Z' });
    expect(reportFileOf('2026-11-26')).toBe('payments_accounting_report_2026_11_26.csv');
    expect(reportUrlOf('LIVE', 'Isp Shop', 'payments_accounting_report_2026_11_26.csv')).toBe(
      'https://ca-live.adyen.com/reports/download/MerchantAccount/Isp%20Shop/payments_accounting_report_2026_11_26.csv',
    );
  });
});

describe('the adapter against the stand-in', () => {
  let standIn: AdyenStandIn;
  const KEY = 'AQEreportKey0000';
  const adyen = (apiKey = KEY, reportLagHours?: number) =>
    new AdyenAcquirer({ apiKey, environment: 'TEST', merchantAccountId: MID, apiBase: standIn.url, timeoutMs: 2000, reportLagHours });

  beforeAll(async () => {
    standIn = await startAdyenStandIn({ apiKeys: [KEY] });
  });
  afterAll(() => standIn.close());

  async function paid(deviceId: string, paymentId: string, amount: string, cardBrand = 'visa') {
    const sent = await adyen().sendBill({
      deviceId,
      paymentId,
      pspReference: `PSP-${paymentId}`,
      amount,
      currency: 'EUR',
      modes: ['CARD'],
      timeoutSeconds: 60,
    });
    expect(sent.outcome).toBe('ON_DEVICE');
    standIn.customer(deviceId, 'pay', { cardBrand, last4: '4242' });
    expect((await adyen().getBillStatus(deviceId, paymentId)).state).toBe('CAPTURED');
  }

  it('payments and a refund settle on their terminal with the fees, once, and only there', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    await paid(A, 'pay_s1', '10.00');
    await paid(B, 'pay_s2', '20.00', 'mc');
    expect((await adyen().refund(A, 'pay_s1', { refundReference: 'REFUND-s1', amount: '4.00', currency: 'EUR' })).state).toBe('SUCCEEDED');
    const until = new Date(Date.now() + 1000).toISOString();

    const report = await adyen().closeBatch(A, 'batch-1', until, since);
    expect(report).toMatchObject({ deviceId: A, batchReference: 'batch-1', closedAt: until });
    expect(report.items.map((i) => [i.type, i.acquirerRef, i.refundReference, i.amount, i.feeAmount, i.cardBrand])).toEqual([
      ['PAYMENT', 'pay_s1', undefined, '10.00', '0.23', 'VISA'],
      ['REFUND', 'pay_s1', 'REFUND-s1', '4.00', '0.00', undefined],
    ]);
    // The same close again answers the same report; B's close has B's payment only.
    expect((await adyen().closeBatch(A, 'batch-1', until, since)).items).toEqual(report.items);
    expect((await adyen().closeBatch(B, 'batch-1', until, since)).items.map((i) => [i.acquirerRef, i.feeAmount])).toEqual([['pay_s2', '0.36']]);
    // The next period starts where this one ended: nothing again.
    expect((await adyen().closeBatch(A, 'batch-2', new Date(Date.now() + 2000).toISOString(), until)).items).toEqual([]);

    const downloads = standIn.requests.filter((r) => r.operation === 'reportDownload');
    expect(downloads.every((r) => r.apiKey === KEY && r.merchantAccount === MID && /payments_accounting_report_\d{4}_\d{2}_\d{2}\.csv$/.test(r.path))).toBe(
      true,
    );
    // The adapter reads one day past the period's UTC dates; that day's file is not there yet (404)
    // unless it has already begun in the account's zone (Amsterdam: from 22:00 or 23:00 UTC).
    const dayAfter = new Date(Date.parse(until) + 86_400_000).toISOString().slice(0, 10);
    expect(downloads.some((r) => r.status === 404)).toBe(reportToday() < dayAfter);
    expect(standIn.invalid).toEqual([]);
  });

  it('a voided payment never settles', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    await paid(A, 'pay_v1', '8.00');
    expect((await adyen().submitVoid(A, 'pay_v1', 'VOID-v1')).state).toBe('CONFIRMED');
    const { items } = await adyen().closeBatch(A, 'batch-v', new Date(Date.now() + 1000).toISOString(), since);
    expect(items.filter((i) => i.paymentId === 'pay_v1')).toEqual([]);
  });

  it('with a report lag, a close reads the bookings of its period that many hours earlier', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    await paid(A, 'pay_l1', '6.00');
    const until = new Date(Date.now() + 1000).toISOString();
    const hourLater = (iso: string) => new Date(Date.parse(iso) + 3_600_000).toISOString();
    const mine = (items: { paymentId?: string }[]) => items.filter((i) => i.paymentId === 'pay_l1');
    expect(mine((await adyen(KEY, 1).closeBatch(A, 'lag-1', until, since)).items)).toEqual([]);
    expect(mine((await adyen(KEY, 1).closeBatch(A, 'lag-2', hourLater(until), hourLater(since))).items)).toEqual([
      expect.objectContaining({ amount: '6.00', feeAmount: '0.18' }),
    ]);
  });

  it('Adyen unreachable: retryable; a key without the report role: refused, the key never in the message', async () => {
    const until = new Date().toISOString();
    standIn.reportsUnreachable(true);
    await expect(adyen().closeBatch(A, 'batch-x', until, until)).rejects.toBeInstanceOf(AcquirerUnreachableError);
    standIn.reportsUnreachable(false);
    const err = await adyen('AQEnotAReportUser')
      .closeBatch(A, 'batch-x', until, until)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AcquirerRejectedError);
    expect((err as AcquirerRejectedError).status).toBe(401);
    expect((err as Error).message).not.toContain('AQEnotAReportUser');
    standIn.invalid.length = 0;
  });
});
