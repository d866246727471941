import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpAcquirer } from '../../src/acquirer/httpAdapter';
import { verifySandboxSignature } from '../../src/acquirer/sandbox/notify';
import { bill, call, newDevice, removeDir, SECRET, type Sandbox, sleep, startSandbox, tempDir, withSandbox } from './helpers';

/** The control endpoints (docs/acquirers.md, "The sandbox acquirer"), driven over HTTP against a real sandbox server. */
describe('sandbox control endpoints', () => {
  let sb: Sandbox;
  let acquirer: HttpAcquirer;
  withSandbox((started) => ({ sb, acquirer } = started));

  it('knows any device on first use, with the defaults', async () => {
    const res = await call(sb, 'GET', '/sim/devices/brand-new-1');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      deviceId: 'brand-new-1',
      modes: ['CARD', 'QR_CODE'],
      twoStep: false,
      voidSupported: true,
      reachable: true,
      latencyMs: 0,
      voidConfirmDelayMs: 0,
      currentBill: null,
    });
  });

  it('PUT sets the given fields, keeps the others, and answers the state', async () => {
    const d = newDevice();
    const res = await call(sb, 'PUT', `/sim/devices/${d}`, { modes: ['QR_CODE'], twoStep: true, latencyMs: 5 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ deviceId: d, modes: ['QR_CODE'], twoStep: true, voidSupported: true, latencyMs: 5, currentBill: null });
    const again = await call(sb, 'PUT', `/sim/devices/${d}`, { voidSupported: false });
    expect(again.body).toMatchObject({ modes: ['QR_CODE'], twoStep: true, voidSupported: false });
    expect((await call(sb, 'GET', `/sim/devices/${d}`)).body).toEqual(again.body);
  });

  it.each([
    [{ modes: ['CASH'] }, 'modes'],
    [{ modes: [] }, 'modes'],
    [{ twoStep: 'yes' }, 'twoStep'],
    [{ latencyMs: -1 }, 'latencyMs'],
    [{ voidConfirmDelayMs: 1.5 }, 'voidConfirmDelayMs'],
    [{ reachable: null }, 'reachable'],
    [{ colour: 'red' }, 'colour'],
  ])('PUT %j is 400 naming %s', async (body, field) => {
    const res = await call(sb, 'PUT', `/sim/devices/${newDevice()}`, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ timestamp: expect.stringMatching(/Z$/), status: 400, error: 'Bad Request', message: expect.stringContaining(field) });
  });

  it('PUT with a body that is not JSON is 400', async () => {
    const res = await call(sb, 'PUT', `/sim/devices/${newDevice()}`, '{not json');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/JSON/);
  });

  it('a customer action with no bill on the device is 409', async () => {
    const res = await call(sb, 'POST', `/sim/devices/${newDevice()}/customer`, { action: 'pay' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ status: 409, error: 'Conflict' });
  });

  it('an unknown customer action is 400 naming action', async () => {
    const d = newDevice();
    await acquirer.sendBill(bill(d));
    const res = await call(sb, 'POST', `/sim/devices/${d}/customer`, { action: 'dance' });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('action');
  });

  it('shows the bill on the device, and the last bill with its outcome once it left', async () => {
    const d = newDevice();
    const sent = await acquirer.sendBill(bill(d, { amount: '99.99', currency: 'JPY', reference: 'R-1' }));
    if (sent.outcome !== 'ON_DEVICE') throw new Error('not on device');
    const on = await call(sb, 'GET', `/sim/devices/${d}`);
    expect(on.body.currentBill).toMatchObject({ acquirerRef: sent.acquirerRef, amount: '99.99', currency: 'JPY', reference: 'R-1', status: 'WAITING' });

    const paid = await call(sb, 'POST', `/sim/devices/${d}/customer`, { action: 'pay', cardBrand: 'MASTERCARD', last4: '0005' });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({
      acquirerRef: sent.acquirerRef,
      status: 'CAPTURED',
      paymentMethod: 'CARD',
      cardBrand: 'MASTERCARD',
      last4: '0005',
      voided: false,
    });
    const after = await call(sb, 'GET', `/sim/devices/${d}`);
    expect(after.body.currentBill).toBeNull();
    expect(after.body.lastBill).toMatchObject({ acquirerRef: sent.acquirerRef, status: 'CAPTURED' });
    expect((await call(sb, 'GET', `/sim/bills/${sent.acquirerRef}`)).body).toMatchObject({ status: 'CAPTURED' });
  });

  it('pay with a mode the bill does not allow is 409 and leaves the bill waiting', async () => {
    const d = newDevice();
    await acquirer.sendBill(bill(d, { modes: ['CARD'] }));
    const res = await call(sb, 'POST', `/sim/devices/${d}/customer`, { action: 'pay', mode: 'QR_CODE' });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('QR_CODE');
    expect((await call(sb, 'GET', `/sim/devices/${d}`)).body.currentBill.status).toBe('WAITING');
  });

  it('pay defaults to the only allowed mode; a QR payment has no card details', async () => {
    const d = newDevice();
    await acquirer.sendBill(bill(d, { modes: ['QR_CODE'] }));
    const res = await call(sb, 'POST', `/sim/devices/${d}/customer`, { action: 'pay' });
    expect(res.body).toMatchObject({ status: 'CAPTURED', paymentMethod: 'QR_CODE' });
    expect(res.body.cardBrand).toBeUndefined();
    expect(res.body.last4).toBeUndefined();
  });

  it('control endpoints keep working while the device is unreachable', async () => {
    const d = newDevice();
    expect((await call(sb, 'PUT', `/sim/devices/${d}`, { reachable: false })).status).toBe(200);
    expect((await call(sb, 'GET', `/sim/devices/${d}`)).body.reachable).toBe(false);
    expect((await call(sb, 'PUT', `/sim/devices/${d}`, { reachable: true })).body.reachable).toBe(true);
  });

  it("GET /sim/acquirer-calls lists each acquirer call with its device and the sandbox's own time on it", async () => {
    const d = newDevice();
    const since = Date.now();
    await call(sb, 'PUT', `/sim/devices/${d}`, { latencyMs: 30 });
    const sent = await acquirer.sendBill(bill(d));
    if (sent.outcome !== 'ON_DEVICE') throw new Error('not on device');
    await acquirer.getBillStatus(d, sent.acquirerRef);
    const res = await call(sb, 'GET', `/sim/acquirer-calls?since=${since}`);
    expect(res.status).toBe(200);
    const mine = res.body.calls.filter((c: { deviceId: string }) => c.deviceId === d);
    expect(mine.map((c: { method: string; path: string }) => `${c.method} ${c.path}`)).toEqual([
      `POST /acquirer/v1/devices/${d}/bills`,
      `GET /acquirer/v1/devices/${d}/bills/${sent.acquirerRef}`,
    ]);
    // the device's latency is the sandbox's own time: it is inside each call's duration
    for (const c of mine) expect(c.durationMs).toBeGreaterThanOrEqual(29);
    expect(mine[0].startedAt).toBeGreaterThanOrEqual(since);
  });
});

describe('sandbox persistence', () => {
  it('a restart with the same DATA_DIR finds the bill still on the device, and settings kept', async () => {
    const dataDir = tempDir();
    const sb = await startSandbox({ dataDir });
    try {
      const d = newDevice();
      await call(sb, 'PUT', `/sim/devices/${d}`, { twoStep: true, voidConfirmDelayMs: 50 });
      const sent = await new HttpAcquirer(sb.url).sendBill(bill(d, { reference: 'kept' }));
      if (sent.outcome !== 'ON_DEVICE') throw new Error('not on device');

      await sb.restart();

      const view = await call(sb, 'GET', `/sim/devices/${d}`);
      expect(view.body).toMatchObject({ twoStep: true, voidConfirmDelayMs: 50 });
      expect(view.body.currentBill).toMatchObject({ acquirerRef: sent.acquirerRef, reference: 'kept', status: 'WAITING' });
      const acquirer = new HttpAcquirer(sb.url);
      expect(await acquirer.sendBill(bill(d))).toEqual({ outcome: 'DEVICE_BUSY', currentReference: 'kept' });
      const paid = await call(sb, 'POST', `/sim/devices/${d}/customer`, { action: 'pay' });
      expect(paid.body.status).toBe('AUTHORIZED');
      expect((await acquirer.getBillStatus(d, sent.acquirerRef)).state).toBe('AUTHORIZED');
    } finally {
      await sb.close();
      removeDir(dataDir);
    }
  });

  it('a sandbox killed without closing leaves its changes in the journal: the next start finds them', async () => {
    const dataDir = tempDir();
    const first = await startSandbox({ dataDir });
    try {
      const d = newDevice();
      const acquirer = new HttpAcquirer(first.url);
      const paid = await acquirer.sendBill(bill(d, { reference: 'paid-before-kill' }));
      const waitingRequest = bill(`${d}-b`, { reference: 'waiting-at-kill' });
      const waiting = await acquirer.sendBill(waitingRequest);
      if (paid.outcome !== 'ON_DEVICE' || waiting.outcome !== 'ON_DEVICE') throw new Error('not on device');
      await call(first, 'POST', `/sim/devices/${d}/customer`, { action: 'pay' });
      // a second sandbox on the same DATA_DIR while the first has not closed: what a kill leaves on disk
      const second = await startSandbox({ dataDir });
      try {
        expect((await new HttpAcquirer(second.url).getBillStatus(d, paid.acquirerRef)).state).toBe('CAPTURED');
        expect((await call(second, 'GET', `/sim/devices/${d}-b`)).body.currentBill).toMatchObject({ reference: 'waiting-at-kill', status: 'WAITING' });
        // a retried send of the same payment gets the same bill back after the restart too
        expect(await new HttpAcquirer(second.url).sendBill(waitingRequest)).toEqual({ outcome: 'ON_DEVICE', acquirerRef: waiting.acquirerRef });
      } finally {
        await second.close();
      }
    } finally {
      await first.close();
      removeDir(dataDir);
    }
  });

  it('a pending void confirms after a restart, from its stored submission time', async () => {
    const dataDir = tempDir();
    const sb = await startSandbox({ dataDir });
    try {
      const d = newDevice();
      await call(sb, 'PUT', `/sim/devices/${d}`, { voidConfirmDelayMs: 300 });
      const acquirer = new HttpAcquirer(sb.url);
      const sent = await acquirer.sendBill(bill(d));
      if (sent.outcome !== 'ON_DEVICE') throw new Error('not on device');
      await call(sb, 'POST', `/sim/devices/${d}/customer`, { action: 'pay' });
      expect((await acquirer.submitVoid(d, sent.acquirerRef, 'VOID-r1')).state).toBe('PENDING');
      await sb.close();
      await sleep(350);
      await sb.restart();
      expect((await new HttpAcquirer(sb.url).getVoidStatus(d, 'VOID-r1')).state).toBe('CONFIRMED');
    } finally {
      await sb.close();
      removeDir(dataDir);
    }
  });
});

describe('sandbox notifications', () => {
  let receiver: Server;
  let received: { headers: IncomingHttpHeaders; raw: string }[];
  let sb: Sandbox;
  beforeAll(async () => {
    received = [];
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const { port } = receiver.address() as AddressInfo;
    sb = await startSandbox({ notifyUrl: `http://127.0.0.1:${port}/notify` });
  });
  afterAll(async () => {
    await sb.close();
    await new Promise<void>((r) => receiver.close(() => r()));
    removeDir(sb.dataDir);
  });

  const waitFor = async (pred: () => boolean, ms = 3000) => {
    const until = Date.now() + ms;
    while (!pred() && Date.now() < until) await sleep(10);
    return pred();
  };

  it('posts a signed notification when the customer acts', async () => {
    const d = newDevice();
    const acquirer = new HttpAcquirer(sb.url);
    const sent = await acquirer.sendBill(bill(d));
    if (sent.outcome !== 'ON_DEVICE') throw new Error('not on device');
    await call(sb, 'POST', `/sim/devices/${d}/customer`, { action: 'decline' });
    const match = () => received.find((r) => r.raw.includes(sent.acquirerRef));
    expect(await waitFor(() => !!match())).toBe(true);
    const n = match()!;
    expect(JSON.parse(n.raw)).toEqual({ deviceId: d, acquirerRef: sent.acquirerRef, event: 'DECLINED' });
    const signature = n.headers['x-sandbox-signature'] as string;
    // t=<unix seconds>,v1=<HMAC of "t.body">: the time is signed too, so an old one is refused.
    expect(signature).toMatch(/^t=\d+,v1=[A-Za-z0-9+/]+=*$/);
    const t = Number(/^t=(\d+)/.exec(signature)![1]);
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(60);
    expect(verifySandboxSignature(n.raw, signature, SECRET, 300)).toBe('valid');
    expect(verifySandboxSignature(Buffer.from(n.raw), signature, SECRET, 300)).toBe('valid');
    expect(verifySandboxSignature(n.raw, signature, SECRET, 300, t + 301)).toBe('stale');
    expect(verifySandboxSignature(n.raw, signature, SECRET, 300, t - 301)).toBe('stale');
    expect(verifySandboxSignature(n.raw, signature.replace(`t=${t}`, `t=${t + 1}`), SECRET, 300)).toBe('invalid');
    expect(verifySandboxSignature(n.raw, signature, 'another-secret-0123456789', 300)).toBe('invalid');
    expect(verifySandboxSignature(n.raw.replace('DECLINED', 'CAPTURED'), signature, SECRET, 300)).toBe('invalid');
    expect(verifySandboxSignature(n.raw, undefined, SECRET, 300)).toBe('invalid');
    expect(verifySandboxSignature(n.raw, 'short', SECRET, 300)).toBe('invalid');
    expect(verifySandboxSignature(n.raw, signature.replace(/^t=\d+,/, ''), SECRET, 300)).toBe('invalid');
  });

  it('notifies when the device timeout expires a bill and when a delayed void confirms', async () => {
    const d = newDevice();
    const acquirer = new HttpAcquirer(sb.url);
    const expiring = await acquirer.sendBill(bill(d, { timeoutSeconds: 0.2 }));
    if (expiring.outcome !== 'ON_DEVICE') throw new Error('not on device');
    const events = () => received.map((r) => JSON.parse(r.raw));
    expect(await waitFor(() => events().some((e) => e.acquirerRef === expiring.acquirerRef && e.event === 'EXPIRED'))).toBe(true);

    await call(sb, 'PUT', `/sim/devices/${d}`, { voidConfirmDelayMs: 200 });
    const paid = await acquirer.sendBill(bill(d));
    if (paid.outcome !== 'ON_DEVICE') throw new Error('not on device');
    await call(sb, 'POST', `/sim/devices/${d}/customer`, { action: 'pay' });
    await acquirer.submitVoid(d, paid.acquirerRef, 'VOID-n1');
    expect(await waitFor(() => events().some((e) => e.acquirerRef === paid.acquirerRef && e.event === 'VOID_CONFIRMED' && e.voidReference === 'VOID-n1'))).toBe(
      true,
    );
  });
});

describe('sandbox partial authorisation (pay with approvedAmount)', () => {
  let sb: Sandbox;
  let acquirer: HttpAcquirer;
  withSandbox((started) => ({ sb, acquirer } = started));

  it('a bill that allows it: the card approves the approvedAmount (captured on a one-step device, authorised on a two-step one)', async () => {
    const d = newDevice();
    const sent = await acquirer.sendBill(bill(d, { amount: '40.00', allowPartialAuthorisation: true }));
    if (sent.outcome !== 'ON_DEVICE') throw new Error(sent.outcome);
    const paid = await call(sb, 'POST', `/sim/devices/${d}/customer`, { action: 'pay', approvedAmount: '25.00' });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: 'CAPTURED', allowPartialAuthorisation: true, authorizedAmount: '25', capturedAmount: '25' });
    expect(await acquirer.getBillStatus(d, sent.acquirerRef)).toMatchObject({ state: 'CAPTURED', authorizedAmount: '25', capturedAmount: '25' });

    const two = newDevice();
    await call(sb, 'PUT', `/sim/devices/${two}`, { twoStep: true });
    const held = await acquirer.sendBill(bill(two, { amount: '40.00', allowPartialAuthorisation: true }));
    if (held.outcome !== 'ON_DEVICE') throw new Error(held.outcome);
    await call(sb, 'POST', `/sim/devices/${two}/customer`, { action: 'pay', approvedAmount: 25 });
    expect(await acquirer.getBillStatus(two, held.acquirerRef)).toMatchObject({ state: 'AUTHORIZED', authorizedAmount: '25' });
    // the completion takes at most what was approved
    await expect(acquirer.completeAuthorization(two, held.acquirerRef, { amount: '25.01', captureReference: 'CAPTURE-1' })).rejects.toThrow(
      /at most the authorised 25/,
    );
    expect(await acquirer.completeAuthorization(two, held.acquirerRef, { amount: '25', captureReference: 'CAPTURE-1' })).toMatchObject({
      state: 'CAPTURED',
      capturedAmount: '25',
    });
  });

  it('a bill that does not allow it is DECLINED with insufficient funds', async () => {
    const d = newDevice();
    const sent = await acquirer.sendBill(bill(d, { amount: '40.00' }));
    if (sent.outcome !== 'ON_DEVICE') throw new Error(sent.outcome);
    const paid = await call(sb, 'POST', `/sim/devices/${d}/customer`, { action: 'pay', approvedAmount: '25' });
    expect(paid.body).toMatchObject({ status: 'DECLINED', errorMessage: 'insufficient funds' });
    expect(await acquirer.getBillStatus(d, sent.acquirerRef)).toMatchObject({ state: 'DECLINED', errorMessage: 'insufficient funds' });
  });

  it.each([[0], [-1], ['40'], [40.01], [25.001], ['abc'], [null]])(
    'approvedAmount %p is 400 naming approvedAmount, the bill still waiting',
    async (approvedAmount) => {
      const d = newDevice();
      await acquirer.sendBill(bill(d, { amount: '40.00', allowPartialAuthorisation: true }));
      const res = await call(sb, 'POST', `/sim/devices/${d}/customer`, { action: 'pay', approvedAmount });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('approvedAmount');
      expect((await call(sb, 'GET', `/sim/devices/${d}`)).body.currentBill).toMatchObject({ status: 'WAITING' });
    },
  );

  it('approvedAmount in JPY must be whole; allowPartialAuthorisation in the send must be a boolean', async () => {
    const d = newDevice();
    await acquirer.sendBill(bill(d, { amount: '4000', currency: 'JPY', allowPartialAuthorisation: true }));
    const res = await call(sb, 'POST', `/sim/devices/${d}/customer`, { action: 'pay', approvedAmount: 2500.5 });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/approvedAmount: must have at most 0 decimal places for JPY/);
    const bad = await call(sb, 'POST', `/acquirer/v1/devices/${newDevice()}/bills`, {
      ...bill('x', { allowPartialAuthorisation: 'yes' as never }),
      deviceId: undefined,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('allowPartialAuthorisation');
  });
});
