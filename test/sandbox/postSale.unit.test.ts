import type { HttpAcquirer } from '../../src/acquirer/httpAdapter';
import { AcquirerRejectedError } from '../../src/acquirer/port';
import { bill, call, newDevice, onDevice, type Sandbox, sleep, withSandbox } from './helpers';

/** Two-step completion and release, and refunds, through HttpAcquirer against a real sandbox (docs/payments.md, "Two-step completion"; docs/refunds.md, "Sandbox"). */
describe('sandbox acquirer after the sale', () => {
  let sb: Sandbox;
  let acquirer: HttpAcquirer;
  withSandbox((started) => ({ sb, acquirer } = started));

  const configure = (d: string, body: object) => call(sb, 'PUT', `/sim/devices/${d}`, body);
  const paidBill = async (d: string, amount = '12.50') => {
    const ref = onDevice(await acquirer.sendBill(bill(d, { amount })));
    expect((await call(sb, 'POST', `/sim/devices/${d}/customer`, { action: 'pay' })).status).toBe(200);
    return ref;
  };

  it('a one-step capture carries the captured amount', async () => {
    const d = newDevice();
    const ref = await paidBill(d, '20.00');
    expect(await acquirer.getBillStatus(d, ref)).toMatchObject({ state: 'CAPTURED', capturedAmount: '20.00' });
  });

  it('completes an authorisation for part of the amount, once; a repeat answers the same completion', async () => {
    const d = newDevice();
    await configure(d, { twoStep: true });
    const ref = await paidBill(d, '50.00');
    expect((await acquirer.getBillStatus(d, ref)).state).toBe('AUTHORIZED');
    const done = await acquirer.completeAuthorization(d, ref, { amount: '30.5', captureReference: 'CAPTURE-1' });
    expect(done).toMatchObject({ state: 'CAPTURED', capturedAmount: '30.5' });
    expect(Date.parse(done.capturedAt!)).toBeGreaterThanOrEqual(Date.parse(done.decidedAt!));
    expect(await acquirer.completeAuthorization(d, ref, { amount: '30.5', captureReference: 'CAPTURE-1' })).toMatchObject({
      state: 'CAPTURED',
      capturedAmount: '30.5',
    });
    // a completed bill cannot be released: the answer says it is captured
    expect((await acquirer.releaseAuthorization(d, ref)).state).toBe('CAPTURED');
  });

  it('refuses a completion above the authorised amount, and of a bill that is not authorised', async () => {
    const d = newDevice();
    await configure(d, { twoStep: true });
    const ref = await paidBill(d, '10.00');
    await expect(acquirer.completeAuthorization(d, ref, { amount: '10.01', captureReference: 'C' })).rejects.toMatchObject({ status: 409 });
    const d2 = newDevice();
    const waiting = onDevice(await acquirer.sendBill(bill(d2)));
    await expect(acquirer.completeAuthorization(d2, waiting, { amount: '1', captureReference: 'C' })).rejects.toBeInstanceOf(AcquirerRejectedError);
  });

  it('releases an authorisation; a repeat answers RELEASED and a completion is then refused', async () => {
    const d = newDevice();
    await configure(d, { twoStep: true });
    const ref = await paidBill(d);
    expect((await acquirer.releaseAuthorization(d, ref)).state).toBe('RELEASED');
    expect((await acquirer.releaseAuthorization(d, ref)).state).toBe('RELEASED');
    await expect(acquirer.completeAuthorization(d, ref, { amount: '1', captureReference: 'C' })).rejects.toMatchObject({ status: 409 });
  });

  it('refunds once per reference: a repeat answers the same refund and pays nothing twice', async () => {
    const d = newDevice();
    const ref = await paidBill(d, '10.00');
    const first = await acquirer.refund(d, ref, { refundReference: `R-${d}-1`, amount: '6.00', currency: 'EUR' });
    expect(first).toMatchObject({ refundReference: `R-${d}-1`, state: 'SUCCEEDED', amount: '6' });
    expect(await acquirer.refund(d, ref, { refundReference: `R-${d}-1`, amount: '6.00', currency: 'EUR' })).toMatchObject({ state: 'SUCCEEDED' });
    // 6 of 10 are refunded: 4 more fit, 4.01 does not
    expect((await acquirer.refund(d, ref, { refundReference: `R-${d}-2`, amount: '4.01', currency: 'EUR' })).state).toBe('FAILED');
    expect((await acquirer.refund(d, ref, { refundReference: `R-${d}-3`, amount: '4', currency: 'EUR' })).state).toBe('SUCCEEDED');
    expect(await acquirer.getRefund(d, `R-${d}-1`)).toMatchObject({ state: 'SUCCEEDED' });
    expect((await call(sb, 'GET', `/sim/bills/${ref}`)).body.refundedAmount).toBe('10');
  });

  it('fails refunds when the device says so, and delays the decision by refundConfirmDelayMs', async () => {
    const d = newDevice();
    const ref = await paidBill(d, '10.00');
    const settings = await configure(d, { refundOutcome: 'FAILED' });
    expect(settings.body).toMatchObject({ refundOutcome: 'FAILED', refundConfirmDelayMs: 0 });
    expect(await acquirer.refund(d, ref, { refundReference: `F-${d}`, amount: '1', currency: 'EUR' })).toMatchObject({
      state: 'FAILED',
      message: expect.any(String),
    });
    await configure(d, { refundOutcome: 'SUCCEEDED', refundConfirmDelayMs: 300 });
    expect((await acquirer.refund(d, ref, { refundReference: `P-${d}`, amount: '1', currency: 'EUR' })).state).toBe('PENDING');
    for (let i = 0; i < 50 && (await acquirer.getRefund(d, `P-${d}`)).state === 'PENDING'; i++) await sleep(50);
    expect((await acquirer.getRefund(d, `P-${d}`)).state).toBe('SUCCEEDED');
  });

  it('refuses a refund of a bill that is not captured, an unknown refund, and bad settings', async () => {
    const d = newDevice();
    const waiting = onDevice(await acquirer.sendBill(bill(d)));
    await expect(acquirer.refund(d, waiting, { refundReference: `X-${d}`, amount: '1', currency: 'EUR' })).rejects.toMatchObject({ status: 409 });
    await expect(acquirer.getRefund(d, `nope-${d}`)).rejects.toMatchObject({ status: 404 });
    const bad = await configure(d, { refundOutcome: 'MAYBE' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('refundOutcome');
  });
});
