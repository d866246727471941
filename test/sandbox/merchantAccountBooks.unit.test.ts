import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HttpAcquirer } from '../../src/acquirer/httpAdapter';
import { bill, call, newDevice, onDevice, removeDir, type Sandbox, startSandbox, tempDir, withSandbox } from './helpers';

/** Books per MID (docs/settlement.md, "Books per merchant account (MID)"). A close reports only the bills (and their refunds) of its MID on the device. */
describe('sandbox settlement books per MID', () => {
  let sb: Sandbox;
  let installation: HttpAcquirer;
  let midA: HttpAcquirer;
  let midB: HttpAcquirer;
  withSandbox(
    (started) => {
      ({ sb, acquirer: installation } = started);
      midA = new HttpAcquirer(sb.url, { timeoutMs: 5000, merchantAccountId: 'MID-A' });
      midB = new HttpAcquirer(sb.url, { timeoutMs: 5000, merchantAccountId: 'MID-B' });
    },
    { timeoutMs: 5000 },
  );

  const far = () => new Date(Date.now() + 60_000).toISOString();
  const refs = (r: { items: { acquirerRef: string; type: string }[] }) => r.items.map((i) => `${i.type} ${i.acquirerRef}`).sort();

  async function paid(acquirer: HttpAcquirer, d: string, amount = '10.00'): Promise<string> {
    const ref = onDevice(await acquirer.sendBill(bill(d, { amount })));
    expect((await call(sb, 'POST', `/sim/devices/${d}/customer`, { action: 'pay' })).status).toBe(200);
    return ref;
  }

  it('two MIDs on one device each close only their own bills; the same batch reference is each its own', async () => {
    const d = newDevice();
    const a1 = await paid(midA, d);
    const b1 = await paid(midB, d, '20.00');
    const a2 = await paid(midA, d, '30.00');
    const sandbox = await paid(installation, d, '40.00');

    const reportA = await midA.closeBatch(d, 'day-1', far());
    expect(refs(reportA)).toEqual([`PAYMENT ${a1}`, `PAYMENT ${a2}`].sort());
    expect(reportA).toMatchObject({ deviceId: d, batchReference: 'day-1', merchantAccountId: 'MID-A' });
    const reportB = await midB.closeBatch(d, 'day-1', far());
    expect(refs(reportB)).toEqual([`PAYMENT ${b1}`]);
    expect(reportB.items[0]).toMatchObject({ amount: '20.00', feeAmount: '0.38' });

    // a retried close answers the same report, per MID
    expect(await midA.closeBatch(d, 'day-1', far())).toEqual(reportA);
    expect(await midB.closeBatch(d, 'day-1', far())).toEqual(reportB);
    // a close without a MID reports the SANDBOX books only
    expect(refs(await installation.closeBatch(d, 'day-1', far()))).toEqual([`PAYMENT ${sandbox}`]);
    expect((await midA.closeBatch(d, 'day-2', far())).items).toEqual([]);
  });

  it('a refund is booked with its bill, whichever instance asked for it', async () => {
    const d = newDevice();
    const a = await paid(midA, d);
    await midA.closeBatch(d, 'sale', far());
    expect((await installation.refund(d, a, { refundReference: `RF-${d}`, amount: '4.00', currency: 'EUR' })).state).toBe('SUCCEEDED');
    expect((await installation.closeBatch(d, 'r', far())).items).toEqual([]);
    expect((await midB.closeBatch(d, 'r', far())).items).toEqual([]);
    expect((await midA.closeBatch(d, 'r', far())).items).toEqual([expect.objectContaining({ type: 'REFUND', acquirerRef: a, amount: '4' })]);
  });

  it('an offline payment goes into the books it names (SANDBOX when it names none)', async () => {
    const d = newDevice();
    const underB = await call(sb, 'POST', `/sim/devices/${d}/offline-payments`, { amount: 7, currency: 'EUR', merchantAccountId: 'MID-B' });
    expect(underB.body.merchantAccountId).toBe('MID-B');
    const plain = await call(sb, 'POST', `/sim/devices/${d}/offline-payments`, { amount: 8, currency: 'EUR' });
    expect(plain.body.merchantAccountId).toBe('SANDBOX');
    expect(refs(await midB.closeBatch(d, 'x', far()))).toEqual([`PAYMENT ${underB.body.acquirerRef}`]);
    expect(refs(await installation.closeBatch(d, 'x', far()))).toEqual([`PAYMENT ${plain.body.acquirerRef}`]);
  });

  it("omitFromReport leaves a bill out of its own MID's next report, not another MID's close", async () => {
    const d = newDevice();
    const a = await paid(midA, d);
    const b = await paid(midB, d);
    await call(sb, 'PUT', `/sim/devices/${d}`, { omitFromReport: [a, b] });
    expect((await midB.closeBatch(d, '1', far())).items).toEqual([]);
    expect((await call(sb, 'GET', `/sim/devices/${d}`)).body.omitFromReport).toEqual([a]);
    expect((await midA.closeBatch(d, '1', far())).items).toEqual([]);
    expect((await call(sb, 'GET', `/sim/devices/${d}`)).body.omitFromReport).toEqual([]);
    expect(refs(await midA.closeBatch(d, '2', far()))).toEqual([`PAYMENT ${a}`]);
    expect(refs(await midB.closeBatch(d, '2', far()))).toEqual([`PAYMENT ${b}`]);
  });
});

describe('sandbox state written before MIDs existed', () => {
  it('loads its bills as SANDBOX, and its reports still answer a retried close', async () => {
    const dataDir = tempDir();
    const at = new Date(Date.now() - 60_000).toISOString();
    const old = (acquirerRef: string, paymentId: string) => ({
      acquirerRef,
      deviceId: 'old-dev',
      paymentId,
      pspReference: `PSP-${paymentId}`,
      amount: '10.00',
      currency: 'EUR',
      reference: null,
      modes: ['CARD'],
      state: 'CAPTURED',
      createdAt: at,
      expiresAt: at,
      decidedAt: at,
      paymentMethod: 'CARD',
      voided: false,
      capturedAmount: '10.00',
    });
    const reported = { ...old('sbx_old_reported', 'p1'), reportedIn: 'old-batch' };
    const report = { deviceId: 'old-dev', batchReference: 'old-batch', closedAt: at, items: [{ type: 'PAYMENT', acquirerRef: reported.acquirerRef }] };
    mkdirSync(path.join(dataDir, 'sandbox'), { recursive: true });
    writeFileSync(
      path.join(dataDir, 'sandbox', 'state.json'),
      JSON.stringify({
        version: 1,
        devices: {},
        bills: { sbx_old_open: old('sbx_old_open', 'p2'), [reported.acquirerRef]: reported },
        voids: {},
        reports: { 'old-dev old-batch': report },
      }),
    );
    const sb = await startSandbox({ dataDir });
    try {
      const acquirer = new HttpAcquirer(sb.url);
      expect((await call(sb, 'GET', '/sim/bills/sbx_old_open')).body.merchantAccountId).toBe('SANDBOX');
      expect(await acquirer.closeBatch('old-dev', 'old-batch', new Date().toISOString())).toEqual({ ...report, merchantAccountId: 'SANDBOX' });
      expect((await new HttpAcquirer(sb.url, { merchantAccountId: 'MID-A' }).closeBatch('old-dev', 'new', new Date().toISOString())).items).toEqual([]);
      expect((await acquirer.closeBatch('old-dev', 'new', new Date().toISOString())).items.map((i) => i.acquirerRef)).toEqual(['sbx_old_open']);
    } finally {
      await sb.close();
      removeDir(dataDir);
    }
  });
});
