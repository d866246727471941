import { HttpAcquirer } from '../../src/acquirer/httpAdapter';
import { bill, call, newDevice, onDevice, type Sandbox, withSandbox } from './helpers';

/** Books per merchant account (docs/settlement.md): every bill records the MID it was sent under and shows it wherever the sandbox shows a bill. */
describe('sandbox bills under a merchant account (MID)', () => {
  let sb: Sandbox;
  let installation: HttpAcquirer;
  let midA: HttpAcquirer;
  withSandbox((started) => {
    ({ sb, acquirer: installation } = started);
    midA = new HttpAcquirer(sb.url, { timeoutMs: 2000, merchantAccountId: 'MID-A' });
  });

  const device = (d: string) => call(sb, 'GET', `/sim/devices/${d}`);
  const customer = (d: string, body: object) => call(sb, 'POST', `/sim/devices/${d}/customer`, body);

  it('shows the MID on the bill on the device, in the customer answer and in the bill status', async () => {
    const d = newDevice();
    const ref = onDevice(await midA.sendBill(bill(d)));
    expect((await device(d)).body.currentBill).toMatchObject({ acquirerRef: ref, merchantAccountId: 'MID-A', status: 'WAITING' });
    const paid = await customer(d, { action: 'pay' });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ acquirerRef: ref, merchantAccountId: 'MID-A', status: 'CAPTURED' });
    expect(await midA.getBillStatus(d, ref)).toMatchObject({ acquirerRef: ref, merchantAccountId: 'MID-A', state: 'CAPTURED' });
    expect((await call(sb, 'GET', `/sim/bills/${ref}`)).body.merchantAccountId).toBe('MID-A');
  });

  it('books a bill sent without a MID (the installation default) under SANDBOX', async () => {
    const d = newDevice();
    const ref = onDevice(await installation.sendBill(bill(d)));
    expect((await device(d)).body.currentBill).toMatchObject({ acquirerRef: ref, merchantAccountId: 'SANDBOX' });
    expect((await customer(d, { action: 'decline' })).body.merchantAccountId).toBe('SANDBOX');
  });

  it('a device accepts bills under any MID, one after the other', async () => {
    const d = newDevice();
    const midB = new HttpAcquirer(sb.url, { timeoutMs: 2000, merchantAccountId: 'MID-B' });
    onDevice(await midA.sendBill(bill(d)));
    expect((await customer(d, { action: 'pay' })).body.merchantAccountId).toBe('MID-A');
    onDevice(await midB.sendBill(bill(d)));
    expect((await device(d)).body.currentBill.merchantAccountId).toBe('MID-B');
    // the device is busy whoever's bill is on it
    expect(await installation.sendBill(bill(d))).toMatchObject({ outcome: 'DEVICE_BUSY' });
  });

  it('a repeated send of the same payment answers the bill it holds, whatever MID the repeat names', async () => {
    const d = newDevice();
    const req = bill(d);
    const ref = onDevice(await midA.sendBill(req));
    expect(await installation.sendBill(req)).toEqual({ outcome: 'ON_DEVICE', acquirerRef: ref });
    expect((await device(d)).body.currentBill).toMatchObject({ acquirerRef: ref, merchantAccountId: 'MID-A' });
  });

  it.each([
    ['empty', ''],
    ['longer than 100', 'M'.repeat(101)],
    ['not a string', 42],
    ['null', null],
  ])('a send with a MID %s is 400 in the error shape, nothing on the device', async (_what, merchantAccountId) => {
    const d = newDevice();
    const { deviceId, ...body } = bill(d);
    const res = await call(sb, 'POST', `/acquirer/v1/devices/${deviceId}/bills`, { ...body, merchantAccountId });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, error: 'Bad Request', message: expect.stringContaining('merchantAccountId') });
    expect(typeof res.body.timestamp).toBe('string');
    expect((await device(d)).body.currentBill).toBeNull();
  });

  it('a MID of 100 characters is accepted', async () => {
    const d = newDevice();
    const long = new HttpAcquirer(sb.url, { merchantAccountId: 'M'.repeat(100) });
    onDevice(await long.sendBill(bill(d)));
    expect((await device(d)).body.currentBill.merchantAccountId).toBe('M'.repeat(100));
  });

  it('a close or an offline payment with an invalid MID is 400', async () => {
    const d = newDevice();
    const close = await call(sb, 'POST', `/acquirer/v1/devices/${d}/settlements`, {
      batchReference: 'b',
      until: new Date().toISOString(),
      merchantAccountId: '',
    });
    expect(close.status).toBe(400);
    expect(close.body.message).toContain('merchantAccountId');
    const offline = await call(sb, 'POST', `/sim/devices/${d}/offline-payments`, { amount: 5, currency: 'EUR', merchantAccountId: 'M'.repeat(101) });
    expect(offline.status).toBe(400);
    expect(offline.body.message).toContain('merchantAccountId');
  });
});
