import { AcquirerRejectedError } from '../../../src/acquirer/port';
import { parseReport, settlementItemsOfReport } from '../../../src/acquirer/adyen/settlement';

/**
 * A dispute's money in Adyen's Payment accounting report (docs/disputes.md
 * "Settlement"): `Chargeback` and `SecondChargeback` debit it, `ChargebackReversed` credits it
 * back, each under the disputed payment's Psp and Merchant Reference with the dispute's own PSP
 * reference in Modification Psp Reference (the pspReference of Adyen's chargeback notifications).
 */
const MID = 'IspShopPOS';
const A = 'V400m-324688179';
const HEADER =
  'Company Account,Merchant Account,Psp Reference,Merchant Reference,Payment Method,Booking Date,TimeZone,Main Currency,Main Amount,Record Type,Payment Currency,Received (PC),Authorised (PC),Captured (PC),Settlement Currency,Payable (SC),Commission (SC),Markup (SC),Scheme Fees (SC),Interchange (SC),Processing Fee Currency,Processing Fee (FC),User Name,Payment Method Variant,Modification Merchant Reference,Modification Psp Reference,Reserved4,Reserved5,Reserved6,Reserved7,Reserved8,Reserved9,Reserved10,Unique Terminal Id';
const line = (cells: string) => `IspCompany,${MID},${cells}`;
const CSV = [
  HEADER,
  // pay_1's dispute: the notice (no money), the debit with Adyen's chargeback fee, the credit back once won.
  line(`8815329842815468,pay_1,visa,2026-11-26 10:00:00,CET,EUR,12.50,NotificationOfChargeback,EUR,,,,,,,,,,,,System,visadebit,,DSP1PAY1DISPUTE1,,,,,,,,${A}`),
  line(`8815329842815468,pay_1,visa,2026-11-26 10:00:01,CET,EUR,12.50,Chargeback,EUR,,,,EUR,-14.50,,-2.00,,,,,System,visadebit,,DSP1PAY1DISPUTE1,,,,,,,,${A}`),
  line(
    `8815329842815468,pay_1,visa,2026-11-26 15:30:00,CET,EUR,12.50,ChargebackReversed,EUR,,,,EUR,12.50,,,,,,,System,visadebit,,DSP1PAY1DISPUTE1,,,,,,,,${A}`,
  ),
  // pay_3's dispute, pursued by the bank after the defense: its second chargeback debits again.
  line(`8815329842816000,pay_3,mc,2026-11-26 16:00:00,CET,EUR,30.00,SecondChargeback,EUR,,,,EUR,-30.00,,,,,,,System,mccredit,,DSP2PAY3DISPUTE2,,,,,,,,${A}`),
  // Another terminal's, and one booked after the period.
  line(`8815329842816999,pay_9,visa,2026-11-26 11:00:00,CET,EUR,5.00,Chargeback,EUR,,,,EUR,-5.00,,,,,,,System,visadebit,,DSP9,,,,,,,,P400Plus-275039202`),
  line(`8815329842816888,pay_8,visa,2026-11-26 23:30:00,CET,EUR,7.00,Chargeback,EUR,,,,EUR,-7.00,,,,,,,System,visadebit,,DSP8,,,,,,,,${A}`),
].join('\r\n');
const PERIOD = { merchantAccount: MID, deviceId: A, since: '2026-11-25T22:00:00.000Z', until: '2026-11-26T20:00:00.000Z' };

describe("Adyen's chargeback records as chargeback items", () => {
  it('the debit, the second debit and the credit back of one terminal, named by the dispute and the bill, with the fee', () => {
    expect(settlementItemsOfReport(parseReport(CSV), PERIOD)).toEqual([
      {
        type: 'CHARGEBACK',
        acquirerRef: 'pay_1',
        paymentId: 'pay_1',
        disputeId: 'DSP1PAY1DISPUTE1',
        bookingRef: 'Chargeback:DSP1PAY1DISPUTE1:2026-11-26T09:00:01.000Z',
        amount: '12.50',
        currency: 'EUR',
        feeAmount: '2.00',
        occurredAt: '2026-11-26T09:00:01.000Z',
      },
      {
        type: 'CHARGEBACK_REVERSAL',
        acquirerRef: 'pay_1',
        paymentId: 'pay_1',
        disputeId: 'DSP1PAY1DISPUTE1',
        bookingRef: 'ChargebackReversed:DSP1PAY1DISPUTE1:2026-11-26T14:30:00.000Z',
        amount: '12.50',
        currency: 'EUR',
        feeAmount: '0.00',
        occurredAt: '2026-11-26T14:30:00.000Z',
      },
      {
        type: 'CHARGEBACK',
        acquirerRef: 'pay_3',
        paymentId: 'pay_3',
        disputeId: 'DSP2PAY3DISPUTE2',
        bookingRef: 'SecondChargeback:DSP2PAY3DISPUTE2:2026-11-26T15:00:00.000Z',
        amount: '30.00',
        currency: 'EUR',
        feeAmount: '0.00',
        occurredAt: '2026-11-26T15:00:00.000Z',
      },
    ]);
  });

  it('each booking of one dispute has its own key (Chargeback, ChargebackReversed, SecondChargeback), the same row read twice the same key', () => {
    const psp = '8815329842817000';
    const row = (at: string, type: string, payable: string) =>
      line(`${psp},pay_4,visa,2026-11-26 ${at},CET,EUR,20.00,${type},EUR,,,,EUR,${payable},,,,,,,System,visadebit,,DSP4,,,,,,,,${A}`);
    const csv = [
      HEADER,
      row('10:00:00', 'Chargeback', '-20.00'),
      row('12:00:00', 'ChargebackReversed', '20.00'),
      row('14:00:00', 'SecondChargeback', '-20.00'),
    ].join('\r\n');
    const read = () => settlementItemsOfReport(parseReport(csv), PERIOD).map((i) => [i.type, i.disputeId, i.bookingRef]);
    expect(read()).toEqual([
      ['CHARGEBACK', 'DSP4', 'Chargeback:DSP4:2026-11-26T09:00:00.000Z'],
      ['CHARGEBACK_REVERSAL', 'DSP4', 'ChargebackReversed:DSP4:2026-11-26T11:00:00.000Z'],
      ['CHARGEBACK', 'DSP4', 'SecondChargeback:DSP4:2026-11-26T13:00:00.000Z'],
    ]);
    expect(read()).toEqual(read());
  });

  it('a chargeback line in a report without the Modification Psp Reference column is refused, naming the column to add', () => {
    const withoutColumn = CSV.replace('Modification Psp Reference', 'Reserved3');
    expect(() => settlementItemsOfReport(parseReport(withoutColumn), PERIOD)).toThrow(AcquirerRejectedError);
    expect(() => settlementItemsOfReport(parseReport(withoutColumn), PERIOD)).toThrow(/Chargeback line of 8815329842815468 .*Modification Psp Reference/);
    // A report without chargebacks still reads without it.
    const paymentsOnly = [HEADER.replace('Modification Psp Reference', 'Reserved3'), CSV.split('\r\n')[1]].join('\r\n');
    expect(settlementItemsOfReport(parseReport(paymentsOnly), PERIOD)).toEqual([]);
  });
});
