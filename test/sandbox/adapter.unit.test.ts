import { HttpAcquirer } from '../../src/acquirer/httpAdapter';
import { AcquirerRejectedError, AcquirerUnreachableError } from '../../src/acquirer/port';
import { bill, call, newDevice, onDevice, removeDir, type Sandbox, sleep, startSandbox, withSandbox } from './helpers';

/** The acquirer API through HttpAcquirer, against a real sandbox server on port 0. */
describe('HttpAcquirer against the sandbox acquirer', () => {
  let sb: Sandbox;
  let acquirer: HttpAcquirer;
  withSandbox((started) => ({ sb, acquirer } = started));

  const customer = (d: string, body: object) => call(sb, 'POST', `/sim/devices/${d}/customer`, body);
  const configure = (d: string, body: object) => call(sb, 'PUT', `/sim/devices/${d}`, body);
  const capturedBill = async (d: string) => {
    const ref = onDevice(await acquirer.sendBill(bill(d)));
    expect((await customer(d, { action: 'pay' })).status).toBe(200);
    return ref;
  };

  it('is named sandbox and reads device capabilities', async () => {
    const d = newDevice();
    await configure(d, { modes: ['CARD'], twoStep: true, voidSupported: false });
    expect(acquirer.name).toBe('sandbox');
    expect(await acquirer.getDevice(d)).toEqual({ deviceId: d, modes: ['CARD'], twoStep: true, voidSupported: false });
  });

  it('sends a bill to the device, then a second one finds the device busy with the first reference', async () => {
    const d = newDevice();
    const ref = onDevice(await acquirer.sendBill(bill(d, { reference: 'first' })));
    expect(ref).toMatch(/^sbx_/);
    expect(await acquirer.getBillStatus(d, ref)).toEqual({ acquirerRef: ref, merchantAccountId: 'SANDBOX', state: 'WAITING' });
    expect(await acquirer.sendBill(bill(d, { reference: 'second' }))).toEqual({ outcome: 'DEVICE_BUSY', currentReference: 'first' });
  });

  it('answers a retried send of the same payment with the same bill', async () => {
    const d = newDevice();
    const req = bill(d);
    const ref = onDevice(await acquirer.sendBill(req));
    expect(await acquirer.sendBill(req)).toEqual({ outcome: 'ON_DEVICE', acquirerRef: ref });
  });

  it('pay captures with card details and frees the device', async () => {
    const d = newDevice();
    const ref = onDevice(await acquirer.sendBill(bill(d)));
    await customer(d, { action: 'pay' });
    const status = await acquirer.getBillStatus(d, ref);
    expect(status).toMatchObject({ acquirerRef: ref, state: 'CAPTURED', paymentMethod: 'CARD', cardBrand: 'VISA', last4: '4242' });
    expect(Date.parse(status.decidedAt!)).not.toBeNaN();
    onDevice(await acquirer.sendBill(bill(d)));
  });

  it.each([
    ['decline', 'DECLINED'],
    ['cancel', 'CANCELLED'],
    ['error', 'ERROR'],
  ])('%s leaves the bill %s and the device free', async (action, state) => {
    const d = newDevice();
    const ref = onDevice(await acquirer.sendBill(bill(d)));
    expect((await customer(d, { action })).body.status).toBe(state);
    const status = await acquirer.getBillStatus(d, ref);
    expect(status.state).toBe(state);
    if (state === 'ERROR') expect(status.errorMessage).toBeTruthy();
    expect(status.cardBrand).toBeUndefined();
    expect((await call(sb, 'GET', `/sim/devices/${d}`)).body.currentBill).toBeNull();
  });

  it('pay on a two-step device authorises', async () => {
    const d = newDevice();
    await configure(d, { twoStep: true });
    const ref = onDevice(await acquirer.sendBill(bill(d)));
    await customer(d, { action: 'pay', mode: 'QR_CODE' });
    expect(await acquirer.getBillStatus(d, ref)).toMatchObject({ state: 'AUTHORIZED', paymentMethod: 'QR_CODE' });
    // Decided at the device: an authorised bill does not block the next one, and cannot be withdrawn.
    expect((await acquirer.withdrawBill(d, ref)).state).toBe('AUTHORIZED');
    onDevice(await acquirer.sendBill(bill(d)));
  });

  it('withdraw while waiting makes the bill WITHDRAWN and frees the device', async () => {
    const d = newDevice();
    const ref = onDevice(await acquirer.sendBill(bill(d)));
    expect((await acquirer.withdrawBill(d, ref)).state).toBe('WITHDRAWN');
    expect((await acquirer.getBillStatus(d, ref)).state).toBe('WITHDRAWN');
    expect((await customer(d, { action: 'pay' })).status).toBe(409);
    onDevice(await acquirer.sendBill(bill(d)));
  });

  it('withdraw after the customer paid answers CAPTURED unchanged', async () => {
    const d = newDevice();
    const ref = await capturedBill(d);
    expect(await acquirer.withdrawBill(d, ref)).toMatchObject({ state: 'CAPTURED', cardBrand: 'VISA' });
    expect((await acquirer.getBillStatus(d, ref)).state).toBe('CAPTURED');
  });

  it("expires a waiting bill when the device's own timeout passes, and frees the device", async () => {
    const d = newDevice();
    const ref = onDevice(await acquirer.sendBill(bill(d, { timeoutSeconds: 0.3 })));
    expect((await acquirer.getBillStatus(d, ref)).state).toBe('WAITING');
    await sleep(400);
    expect((await acquirer.getBillStatus(d, ref)).state).toBe('EXPIRED');
    expect((await acquirer.withdrawBill(d, ref)).state).toBe('EXPIRED');
    expect((await customer(d, { action: 'pay' })).status).toBe(409);
    onDevice(await acquirer.sendBill(bill(d)));
  });

  it('answers MODE_UNSUPPORTED with the device modes when none of the requested modes is offered', async () => {
    const d = newDevice();
    await configure(d, { modes: ['CARD'] });
    expect(await acquirer.sendBill(bill(d, { modes: ['QR_CODE'] }))).toEqual({ outcome: 'MODE_UNSUPPORTED', supportedModes: ['CARD'] });
    expect((await call(sb, 'GET', `/sim/devices/${d}`)).body.currentBill).toBeNull();
    // A bill that allows both modes is offered only what the device supports.
    const ref = onDevice(await acquirer.sendBill(bill(d, { modes: ['CARD', 'QR_CODE'] })));
    expect((await call(sb, 'GET', `/sim/bills/${ref}`)).body.modes).toEqual(['CARD']);
  });

  it('confirms a void at once when the device has no delay; the bill stays CAPTURED and is marked voided', async () => {
    const d = newDevice();
    const ref = await capturedBill(d);
    expect(await acquirer.submitVoid(d, ref, 'VOID-1')).toEqual({ voidReference: 'VOID-1', state: 'CONFIRMED' });
    expect(await acquirer.getVoidStatus(d, 'VOID-1')).toEqual({ voidReference: 'VOID-1', state: 'CONFIRMED' });
    expect((await acquirer.getBillStatus(d, ref)).state).toBe('CAPTURED');
    expect((await call(sb, 'GET', `/sim/devices/${d}`)).body.lastBill).toMatchObject({ status: 'CAPTURED', voided: true });
  });

  it('a void with a confirmation delay is PENDING, then CONFIRMED after the delay', async () => {
    const d = newDevice();
    await configure(d, { voidConfirmDelayMs: 300 });
    const ref = await capturedBill(d);
    expect((await acquirer.submitVoid(d, ref, 'VOID-2')).state).toBe('PENDING');
    expect((await acquirer.getVoidStatus(d, 'VOID-2')).state).toBe('PENDING');
    expect((await call(sb, 'GET', `/sim/bills/${ref}`)).body.voided).toBe(false);
    // Each call is a new reversal; repeating a voidReference answers that same reversal.
    expect((await acquirer.submitVoid(d, ref, 'VOID-3')).state).toBe('PENDING');
    expect((await acquirer.submitVoid(d, ref, 'VOID-2')).state).toBe('PENDING');
    await sleep(400);
    expect((await acquirer.getVoidStatus(d, 'VOID-2')).state).toBe('CONFIRMED');
    expect((await acquirer.getVoidStatus(d, 'VOID-3')).state).toBe('CONFIRMED');
    expect((await call(sb, 'GET', `/sim/bills/${ref}`)).body).toMatchObject({ status: 'CAPTURED', voided: true });
  });

  it('rejects a void when the device does not support voids, or the bill is not CAPTURED', async () => {
    const d = newDevice();
    await configure(d, { voidSupported: false });
    const ref = await capturedBill(d);
    expect(await acquirer.submitVoid(d, ref, 'VOID-4')).toMatchObject({ voidReference: 'VOID-4', state: 'REJECTED', message: expect.any(String) });
    expect((await acquirer.getVoidStatus(d, 'VOID-4')).state).toBe('REJECTED');

    const e = newDevice();
    const declined = onDevice(await acquirer.sendBill(bill(e)));
    await customer(e, { action: 'decline' });
    expect((await acquirer.submitVoid(e, declined, 'VOID-5')).state).toBe('REJECTED');
  });

  it('refuses unknown bills and voids, and malformed bills, with AcquirerRejectedError', async () => {
    const d = newDevice();
    await expect(acquirer.getBillStatus(d, 'sbx_nope')).rejects.toMatchObject({ name: 'AcquirerRejectedError', status: 404 });
    await expect(acquirer.getVoidStatus(d, 'VOID-none')).rejects.toBeInstanceOf(AcquirerRejectedError);
    await expect(acquirer.sendBill(bill(d, { amount: '12,50' }))).rejects.toMatchObject({ status: 400, message: expect.stringContaining('amount') });
    // A bill of another device is not found through this one.
    const ref = onDevice(await acquirer.sendBill(bill(d)));
    await expect(acquirer.getBillStatus(newDevice(), ref)).rejects.toMatchObject({ status: 404 });
  });

  it('an unreachable device makes every acquirer call fail as a network timeout would', async () => {
    const d = newDevice();
    const ref = onDevice(await acquirer.sendBill(bill(d)));
    await configure(d, { reachable: false });
    const started = Date.now();
    await expect(acquirer.getDevice(d)).rejects.toBeInstanceOf(AcquirerUnreachableError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150); // no quick error answer
    await expect(acquirer.withdrawBill(d, ref)).rejects.toBeInstanceOf(AcquirerUnreachableError);
    await expect(acquirer.sendBill(bill(d))).rejects.toBeInstanceOf(AcquirerUnreachableError);
    // A short adapter timeout gives up before the sandbox drops the connection: the same error.
    await expect(new HttpAcquirer(sb.url, { timeoutMs: 50 }).getBillStatus(d, ref)).rejects.toThrow(/timed out/);
    // The withdraw never reached the acquirer: the bill is still waiting.
    await configure(d, { reachable: true });
    expect((await acquirer.getBillStatus(d, ref)).state).toBe('WAITING');
  });

  it('a server that is not there is unreachable too', async () => {
    const gone = await startSandbox();
    const url = gone.url;
    await gone.close();
    removeDir(gone.dataDir);
    await expect(new HttpAcquirer(url, { timeoutMs: 500 }).getDevice('x')).rejects.toBeInstanceOf(AcquirerUnreachableError);
  });

  it('applies the device latency to acquirer calls, not to control calls', async () => {
    const d = newDevice();
    await configure(d, { latencyMs: 250 });
    let started = Date.now();
    await acquirer.getDevice(d);
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    started = Date.now();
    await call(sb, 'GET', `/sim/devices/${d}`);
    expect(Date.now() - started).toBeLessThan(200);
  });
});
