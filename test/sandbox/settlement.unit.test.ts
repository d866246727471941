import { HttpAcquirer } from '../../src/acquirer/httpAdapter';
import { sandboxFee } from '../../src/acquirer/sandbox/settlement';
import { bill, call, newDevice, type Sandbox, withSandbox } from './helpers';

/** The sandbox's settlement report (docs/settlement.md, "The sandbox"), through the acquirer port over HTTP. */
describe('sandbox settlement report', () => {
  let sb: Sandbox;
  let acquirer: HttpAcquirer;
  withSandbox((started) => ({ sb, acquirer } = started), { timeoutMs: 5000 });

  const far = () => new Date(Date.now() + 60_000).toISOString();

  async function paid(deviceId: string, amount: string, mode: 'CARD' | 'QR_CODE' = 'CARD', currency = 'EUR'): Promise<string> {
    const sent = await acquirer.sendBill(bill(deviceId, { amount, currency }));
    if (sent.outcome !== 'ON_DEVICE') throw new Error(sent.outcome);
    expect((await call(sb, 'POST', `/sim/devices/${deviceId}/customer`, { action: 'pay', mode })).status).toBe(200);
    return sent.acquirerRef;
  }

  it('fees: 1.40 % + 0.10 for CARD, 0.90 % for QR_CODE, rounded half up to the minor unit', () => {
    expect(sandboxFee('100.00', 'EUR', 'CARD')).toBe('1.50');
    expect(sandboxFee('12.50', 'EUR', 'CARD')).toBe('0.28'); // 0.175 + 0.10 = 0.275 -> 0.28 (half up)
    expect(sandboxFee('50.00', 'EUR', 'QR_CODE')).toBe('0.45');
    expect(sandboxFee('0.50', 'EUR', 'QR_CODE')).toBe('0.00'); // 0.0045
    expect(sandboxFee('1.00', 'EUR', 'QR_CODE')).toBe('0.01'); // 0.009 -> 0.01
    expect(sandboxFee('1000', 'JPY', 'CARD')).toBe('14'); // 14 + 0.10 -> 14
    expect(sandboxFee('1250', 'JPY', 'QR_CODE')).toBe('11'); // 11.25 -> 11
  });

  it('reports captured bills once, with fees; a retried close answers the same report', async () => {
    const d = newDevice();
    const card = await paid(d, '100.00', 'CARD');
    const qr = await paid(d, '50.00', 'QR_CODE');
    // an unpaid bill is not reported
    await acquirer.sendBill(bill(d, { amount: '9.00' }));
    const report = await acquirer.closeBatch(d, 'batch-1', far());
    expect(report.items).toHaveLength(2);
    expect(report.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'PAYMENT', acquirerRef: card, amount: '100.00', currency: 'EUR', feeAmount: '1.50', paymentMethod: 'CARD' }),
        expect.objectContaining({ type: 'PAYMENT', acquirerRef: qr, amount: '50.00', feeAmount: '0.45', paymentMethod: 'QR_CODE' }),
      ]),
    );
    expect(await acquirer.closeBatch(d, 'batch-1', far())).toEqual(report);
    expect((await acquirer.closeBatch(d, 'batch-2', far())).items).toEqual([]);
  });

  it('a bill captured after `until` waits for a later close', async () => {
    const d = newDevice();
    const before = new Date(Date.now() - 1000).toISOString();
    const ref = await paid(d, '10.00');
    expect((await acquirer.closeBatch(d, 'early', before)).items).toEqual([]);
    expect((await acquirer.closeBatch(d, 'later', far())).items.map((i) => i.acquirerRef)).toEqual([ref]);
  });

  it('a succeeded refund is reported once, without a fee; a failed one never', async () => {
    const d = newDevice();
    const ref = await paid(d, '40.00');
    expect((await acquirer.closeBatch(d, 'sale', far())).items).toHaveLength(1);
    expect((await acquirer.refund(d, ref, { refundReference: 'RF-1', amount: '15.00', currency: 'EUR' })).state).toBe('SUCCEEDED');
    await call(sb, 'PUT', `/sim/devices/${d}`, { refundOutcome: 'FAILED' });
    expect((await acquirer.refund(d, ref, { refundReference: 'RF-2', amount: '5.00', currency: 'EUR' })).state).toBe('FAILED');
    const report = await acquirer.closeBatch(d, 'refunds', far());
    expect(report.items).toEqual([
      expect.objectContaining({ type: 'REFUND', acquirerRef: ref, refundReference: 'RF-1', amount: '15', currency: 'EUR', feeAmount: '0.00' }),
    ]);
    expect((await acquirer.closeBatch(d, 'again', far())).items).toEqual([]);
  });

  it('a voided bill is not settled', async () => {
    const d = newDevice();
    const ref = await paid(d, '10.00');
    expect((await acquirer.submitVoid(d, ref, 'VOID-1')).state).toBe('CONFIRMED');
    expect((await acquirer.closeBatch(d, 'b', far())).items).toEqual([]);
  });

  it('omitFromReport leaves a bill out of the next report only', async () => {
    const d = newDevice();
    const kept = await paid(d, '10.00');
    const omitted = await paid(d, '20.00');
    const put = await call(sb, 'PUT', `/sim/devices/${d}`, { omitFromReport: [omitted] });
    expect(put.status).toBe(200);
    expect(put.body.omitFromReport).toEqual([omitted]);
    expect((await acquirer.closeBatch(d, 'first', far())).items.map((i) => i.acquirerRef)).toEqual([kept]);
    expect((await call(sb, 'GET', `/sim/devices/${d}`)).body.omitFromReport).toEqual([]);
    expect((await acquirer.closeBatch(d, 'second', far())).items.map((i) => i.acquirerRef)).toEqual([omitted]);
  });

  it('an offline payment is a card payment that appears only in the next report', async () => {
    const d = newDevice();
    const res = await call(sb, 'POST', `/sim/devices/${d}/offline-payments`, { amount: 30, currency: 'EUR', cardBrand: 'MASTERCARD', last4: '1111' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ amount: '30', currency: 'EUR', status: 'CAPTURED', paymentMethod: 'CARD', cardBrand: 'MASTERCARD', last4: '1111' });
    const report = await acquirer.closeBatch(d, 'x', far());
    expect(report.items).toEqual([
      expect.objectContaining({
        type: 'PAYMENT',
        acquirerRef: res.body.acquirerRef,
        amount: '30',
        feeAmount: '0.52',
        paymentMethod: 'CARD',
        cardBrand: 'MASTERCARD',
        last4: '1111',
      }),
    ]);
    expect(report.items[0].paymentId).toBeUndefined();
    expect((await acquirer.closeBatch(d, 'y', far())).items).toEqual([]);
  });

  it.each([
    [{ amount: -1, currency: 'EUR' }, 'amount'],
    [{ amount: 1.234, currency: 'EUR' }, 'amount'],
    [{ amount: 10, currency: 'XXX' }, 'currency'],
    [{ amount: 10, currency: 'EUR', last4: '12' }, 'last4'],
    [{ currency: 'EUR' }, 'amount'],
  ])('offline payment %j is 400 naming %s', async (body, field) => {
    const res = await call(sb, 'POST', `/sim/devices/${newDevice()}/offline-payments`, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
  });

  it('a report survives a restart of the sandbox', async () => {
    const d = newDevice();
    await paid(d, '10.00');
    const report = await acquirer.closeBatch(d, 'kept', far());
    await sb.restart();
    acquirer = new HttpAcquirer(sb.url, { timeoutMs: 5000 });
    expect(await acquirer.closeBatch(d, 'kept', far())).toEqual(report);
  });
});
