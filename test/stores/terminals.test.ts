import { createMerchantWithKey, uniqueId } from '../support/fixtures';
import { call, expectErrorShape } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { insertPayment as insertPaymentRow, type Merchant } from './helpers';

/** Terminals (docs/stores-and-terminals.md) against the real stack: every rule, every error status, tenant isolation. */

let stack: TestStack;
let a: Merchant;
let b: Merchant;
let storeA: Record<string, any>;

beforeAll(async () => {
  stack = await startTestStack();
  a = await createMerchantWithKey(stack.db);
  b = await createMerchantWithKey(stack.db);
  storeA = await createStore(a);
});
afterAll(async () => {
  await stack?.stop();
});

const storePath = (m: Merchant, storeExternalId: string) => `/api/merchants/${m.merchant.externalId}/stores/${storeExternalId}`;
const terminalsPath = (m: Merchant, storeExternalId: string) => `${storePath(m, storeExternalId)}/terminals`;

async function createStore(m: Merchant, name = 'Store') {
  const res = await call(stack.apiUrl, 'POST', `/api/merchants/${m.merchant.externalId}/stores`, {
    key: m.key,
    body: { name, country: 'NL', timezone: 'Europe/Amsterdam' },
  });
  expect(res.status).toBe(201);
  return res.body as Record<string, any>;
}

async function createTerminal(m: Merchant, storeExternalId: string, body: Record<string, unknown> = { label: 'Till' }) {
  const res = await call(stack.apiUrl, 'POST', terminalsPath(m, storeExternalId), { key: m.key, body });
  expect(res.status).toBe(201);
  return res.body as Record<string, any>;
}

const terminalCount = (merchantId: string) => stack.db.terminal.count({ where: { merchantId } });

/** A payment row as the payments side writes it, taken at a terminal `hoursAgo`. */
async function insertPayment(m: Merchant, terminalExternalId: string, hoursAgo: number) {
  const terminal = await stack.db.terminal.findUniqueOrThrow({ where: { externalId: terminalExternalId }, include: { store: true } });
  const at = { storeId: terminal.storeId, terminalId: terminal.id, storeExternalId: terminal.store.externalId, terminalExternalId };
  return insertPaymentRow(stack.db, m, at, { hoursAgo, amount: '9.99' });
}

describe('POST and GET a terminal', () => {
  it('registers a terminal: externalId, the submitted fields, status ACTIVE, ready false until the operator links a device', async () => {
    const serialNumber = uniqueId('SN');
    const body = { label: 'Front till', terminalType: 'POS', vendor: 'Acme', model: 'T-100', serialNumber, metadata: { lane: 3, flags: ['a'] } };
    const res = await call(stack.apiUrl, 'POST', terminalsPath(a, storeA.externalId), { key: a.key, body });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      externalId: expect.stringMatching(/^term_[0-9A-Za-z]{20}$/),
      storeExternalId: storeA.externalId,
      ...body,
      status: 'ACTIVE',
      ready: false,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    expect(res.headers.get('location')).toBe(`${terminalsPath(a, storeA.externalId)}/${res.body.externalId}`);

    const path = `${terminalsPath(a, storeA.externalId)}/${res.body.externalId}`;
    expect((await call(stack.apiUrl, 'GET', path, { key: a.key })).body).toEqual(res.body);

    // The device link is the operator's (terminal:link); the API shows only that the terminal is ready.
    await stack.db.terminal.update({ where: { externalId: res.body.externalId }, data: { deviceId: 'device-secret-1', linkedAt: new Date() } });
    const linked = await call(stack.apiUrl, 'GET', path, { key: a.key });
    expect(linked.body.ready).toBe(true);
    expect(JSON.stringify(linked.body)).not.toContain('device-secret-1');
    expect(linked.body).not.toHaveProperty('id');
    expect(linked.body).not.toHaveProperty('deviceId');
  });

  it('needs only a label; unset fields are null, metadata {}', async () => {
    const t = await createTerminal(a, storeA.externalId, { label: 'Minimal', vendor: null });
    expect(t).toMatchObject({
      label: 'Minimal',
      terminalType: null,
      vendor: null,
      model: null,
      serialNumber: null,
      metadata: {},
      status: 'ACTIVE',
      ready: false,
    });
  });

  it('accepts every terminal type and status INACTIVE', async () => {
    for (const terminalType of ['POS', 'MPOS', 'SOFTPOS', 'KIOSK', 'UNATTENDED']) {
      expect((await createTerminal(a, storeA.externalId, { label: terminalType, terminalType })).terminalType).toBe(terminalType);
    }
    expect((await createTerminal(a, storeA.externalId, { label: 'Off', status: 'INACTIVE' })).status).toBe('INACTIVE');
  });

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ['label', { label: undefined }, 'label: is required'],
    ['label', { label: '' }, 'label: must not be blank'],
    ['label', { label: 7 }, 'label:'],
    ['label', { label: 'l'.repeat(101) }, 'label: must be at most 100 characters'],
    ['terminalType', { terminalType: 'ATM' }, 'terminalType: must be one of POS, MPOS, SOFTPOS, KIOSK, UNATTENDED'],
    ['terminalType', { terminalType: 'pos' }, 'terminalType:'],
    ['vendor', { vendor: 1 }, 'vendor:'],
    ['model', { model: ' ' }, 'model: must not be blank'],
    ['serialNumber', { serialNumber: '' }, 'serialNumber: must not be blank'],
    ['serialNumber', { serialNumber: 123 }, 'serialNumber:'],
    ['metadata', { metadata: [] }, 'metadata: must be a JSON object'],
    ['metadata', { metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [String(i), i])) }, 'metadata: must have at most 50 entries'],
    ['metadata', { metadata: { ['k'.repeat(101)]: true } }, 'metadata: keys must be at most 100 characters'],
    ['status', { status: 'RETIRED' }, 'status: must be ACTIVE or INACTIVE'],
    ['deviceId (operator-only)', { deviceId: 'dev-1' }, 'deviceId'],
    ['unknown field', { colour: 'red' }, 'colour'],
  ];
  it.each(invalid)('rejects an invalid %s with 400 naming the field, and writes nothing', async (_field, over, expected) => {
    const before = await terminalCount(a.merchant.id);
    // JSON leaves out a field set to undefined: that is how a missing field is sent.
    const res = await call(stack.apiUrl, 'POST', terminalsPath(a, storeA.externalId), { key: a.key, body: { label: 'Till', ...over } });
    expect(expectErrorShape(res, 400)).toContain(expected);
    expect(await terminalCount(a.merchant.id)).toBe(before);
  });

  it('answers malformed JSON with 400 and writes nothing', async () => {
    const before = await terminalCount(a.merchant.id);
    expectErrorShape(await call(stack.apiUrl, 'POST', terminalsPath(a, storeA.externalId), { key: a.key, rawBody: '{"label":' }), 400);
    expect(await terminalCount(a.merchant.id)).toBe(before);
  });

  it('answers 404 for an unknown store or terminal, and for a terminal asked under another store of the business', async () => {
    expectErrorShape(await call(stack.apiUrl, 'GET', terminalsPath(a, 'store_missing'), { key: a.key }), 404);
    expectErrorShape(await call(stack.apiUrl, 'POST', terminalsPath(a, 'store_missing'), { key: a.key, body: { label: 'x' } }), 404);
    expectErrorShape(await call(stack.apiUrl, 'GET', `${terminalsPath(a, storeA.externalId)}/term_missing`, { key: a.key }), 404);
    const other = await createStore(a, 'Other');
    const t = await createTerminal(a, storeA.externalId);
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await call(stack.apiUrl, method, `${terminalsPath(a, other.externalId)}/${t.externalId}`, {
        key: a.key,
        body: method === 'PUT' ? { label: 'moved' } : undefined,
      });
      expectErrorShape(res, 404);
    }
    expect((await stack.db.terminal.findUniqueOrThrow({ where: { externalId: t.externalId } })).label).toBe('Till');
  });
});

describe('serial numbers: unique among the business terminals, whatever the case', () => {
  it('refuses a duplicate with 409 in the same or another store, allows it for another business', async () => {
    const serial = uniqueId('ABC');
    await createTerminal(a, storeA.externalId, { label: 'One', serialNumber: serial });
    const before = await terminalCount(a.merchant.id);
    const same = await call(stack.apiUrl, 'POST', terminalsPath(a, storeA.externalId), {
      key: a.key,
      body: { label: 'Two', serialNumber: serial.toLowerCase() },
    });
    expect(expectErrorShape(same, 409)).toContain('serialNumber');
    const otherStore = await createStore(a, 'Second');
    expectErrorShape(
      await call(stack.apiUrl, 'POST', terminalsPath(a, otherStore.externalId), { key: a.key, body: { label: 'Three', serialNumber: serial.toUpperCase() } }),
      409,
    );
    expect(await terminalCount(a.merchant.id)).toBe(before + 0);

    const storeB = await createStore(b);
    expect((await createTerminal(b, storeB.externalId, { label: 'B', serialNumber: serial })).serialNumber).toBe(serial);
  });

  it('lets only one of several concurrent creates with the same serial succeed', async () => {
    const serial = uniqueId('RACE');
    const variants = [serial, serial.toLowerCase(), serial.toUpperCase(), serial, serial.toLowerCase(), serial.toUpperCase()];
    const results = await Promise.all(
      variants.map((serialNumber, i) =>
        call(stack.apiUrl, 'POST', terminalsPath(a, storeA.externalId), { key: a.key, body: { label: `Race ${i}`, serialNumber } }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expectErrorShape(r, 409);
    const rows = await stack.db.$queryRaw<
      { n: bigint }[]
    >`SELECT count(*) AS n FROM "Terminal" WHERE "merchantId" = ${a.merchant.id} AND lower("serialNumber") = lower(${serial})`;
    expect(Number(rows[0]!.n)).toBe(1);
  });

  it('PUT to another terminal serial is 409 and changes nothing; changing the case of its own serial is fine', async () => {
    const serialOne = uniqueId('PUT');
    const one = await createTerminal(a, storeA.externalId, { label: 'One', serialNumber: serialOne });
    const two = await createTerminal(a, storeA.externalId, { label: 'Two', serialNumber: uniqueId('PUT') });
    const path = `${terminalsPath(a, storeA.externalId)}/${two.externalId}`;
    const before = await stack.db.terminal.findUniqueOrThrow({ where: { externalId: two.externalId } });
    expectErrorShape(await call(stack.apiUrl, 'PUT', path, { key: a.key, body: { label: 'Two renamed', serialNumber: serialOne.toLowerCase() } }), 409);
    expect(await stack.db.terminal.findUniqueOrThrow({ where: { externalId: two.externalId } })).toEqual(before);

    const own = await call(stack.apiUrl, 'PUT', `${terminalsPath(a, storeA.externalId)}/${one.externalId}`, {
      key: a.key,
      body: { label: 'One', serialNumber: serialOne.toLowerCase() },
    });
    expect(own.status).toBe(200);
    expect(own.body.serialNumber).toBe(serialOne.toLowerCase());
  });

  it('frees the serial number once its terminal is deleted', async () => {
    const serial = uniqueId('FREE');
    const t = await createTerminal(a, storeA.externalId, { label: 'Old', serialNumber: serial });
    expect((await call(stack.apiUrl, 'DELETE', `${terminalsPath(a, storeA.externalId)}/${t.externalId}`, { key: a.key })).status).toBe(204);
    expect((await createTerminal(a, storeA.externalId, { label: 'New', serialNumber: serial.toLowerCase() })).serialNumber).toBe(serial.toLowerCase());
  });
});

describe('GET the list', () => {
  it("is a JSON array of the store's terminals ordered by label without regard to case", async () => {
    const store = await createStore(a, 'Listing');
    for (const label of ['till 3', 'Till 1', 'kiosk', 'Till 2', 'Back office']) await createTerminal(a, store.externalId, { label });
    const elsewhere = await createStore(a, 'Elsewhere');
    await createTerminal(a, elsewhere.externalId, { label: 'Another store' });
    const res = await call(stack.apiUrl, 'GET', terminalsPath(a, store.externalId), { key: a.key });
    expect(res.status).toBe(200);
    expect(res.body.map((t: any) => t.label)).toEqual(['Back office', 'kiosk', 'Till 1', 'Till 2', 'till 3']);
    expect(res.body.every((t: any) => t.storeExternalId === store.externalId)).toBe(true);
    const empty = await createStore(a, 'Empty');
    expect((await call(stack.apiUrl, 'GET', terminalsPath(a, empty.externalId), { key: a.key })).body).toEqual([]);
  });
});

describe('PUT a terminal', () => {
  it('replaces the submitted fields, keeps an omitted status and never touches the device link', async () => {
    const t = await createTerminal(a, storeA.externalId, {
      label: 'Old',
      terminalType: 'MPOS',
      vendor: 'V',
      model: 'M',
      metadata: { x: 1 },
      status: 'INACTIVE',
    });
    await stack.db.terminal.update({ where: { externalId: t.externalId }, data: { deviceId: uniqueId('dev'), linkedAt: new Date() } });
    const path = `${terminalsPath(a, storeA.externalId)}/${t.externalId}`;
    const res = await call(stack.apiUrl, 'PUT', path, { key: a.key, body: { label: 'New', terminalType: 'KIOSK' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      externalId: t.externalId,
      label: 'New',
      terminalType: 'KIOSK',
      vendor: null,
      model: null,
      metadata: {},
      status: 'INACTIVE',
      ready: true,
      createdAt: t.createdAt,
    });
    const row = await stack.db.terminal.findUniqueOrThrow({ where: { externalId: t.externalId } });
    expect(row.deviceId).not.toBeNull();
    expect((await call(stack.apiUrl, 'PUT', path, { key: a.key, body: { label: 'New', status: 'ACTIVE' } })).body.status).toBe('ACTIVE');
  });

  it('a rejected PUT changes nothing', async () => {
    const t = await createTerminal(a, storeA.externalId, { label: 'Keep', vendor: 'V' });
    const path = `${terminalsPath(a, storeA.externalId)}/${t.externalId}`;
    const before = await stack.db.terminal.findUniqueOrThrow({ where: { externalId: t.externalId } });
    for (const body of [{ vendor: 'only' }, { label: 'x', terminalType: 'ATM' }, { label: 'x', ready: true }]) {
      expectErrorShape(await call(stack.apiUrl, 'PUT', path, { key: a.key, body }), 400);
    }
    expectErrorShape(await call(stack.apiUrl, 'PUT', path, { key: a.key, rawBody: '[' }), 400);
    expectErrorShape(await call(stack.apiUrl, 'PUT', `${terminalsPath(a, storeA.externalId)}/term_missing`, { key: a.key, body: { label: 'x' } }), 404);
    expect(await stack.db.terminal.findUniqueOrThrow({ where: { externalId: t.externalId } })).toEqual(before);
  });
});

describe('DELETE a terminal', () => {
  it('deletes with 204 and removes its device link', async () => {
    const t = await createTerminal(a, storeA.externalId);
    await stack.db.terminal.update({ where: { externalId: t.externalId }, data: { deviceId: uniqueId('dev'), linkedAt: new Date() } });
    const path = `${terminalsPath(a, storeA.externalId)}/${t.externalId}`;
    const res = await call(stack.apiUrl, 'DELETE', path, { key: a.key });
    expect(res.status).toBe(204);
    expect(await stack.db.terminal.findUnique({ where: { externalId: t.externalId } })).toBeNull();
    expectErrorShape(await call(stack.apiUrl, 'GET', path, { key: a.key }), 404);
    expect(await stack.db.store.findUnique({ where: { externalId: storeA.externalId } })).not.toBeNull();
  });

  it('refuses an unforced delete after a recent payment (409, nothing removed); force=true deletes and the payment stays readable', async () => {
    const t = await createTerminal(a, storeA.externalId);
    const path = `${terminalsPath(a, storeA.externalId)}/${t.externalId}`;
    const payment = await insertPayment(a, t.externalId, 2);
    expect(expectErrorShape(await call(stack.apiUrl, 'DELETE', path, { key: a.key }), 409)).toMatch(/force=true/);
    expectErrorShape(await call(stack.apiUrl, 'DELETE', `${path}?force=false`, { key: a.key }), 409);
    expect(await stack.db.terminal.findUnique({ where: { externalId: t.externalId } })).not.toBeNull();

    expect((await call(stack.apiUrl, 'DELETE', `${path}?force=true`, { key: a.key })).status).toBe(204);
    expect(await stack.db.terminal.findUnique({ where: { externalId: t.externalId } })).toBeNull();
    const kept = await stack.db.payment.findUniqueOrThrow({ where: { id: payment.id } });
    expect(kept).toMatchObject({ terminalId: null, terminalExternalId: t.externalId, storeExternalId: storeA.externalId, status: 'CAPTURED' });
    expect(kept.storeId).not.toBeNull(); // the store is still there
  });

  it('allows an unforced delete when the only payments are older than the window', async () => {
    const t = await createTerminal(a, storeA.externalId);
    await insertPayment(a, t.externalId, 30);
    expect((await call(stack.apiUrl, 'DELETE', `${terminalsPath(a, storeA.externalId)}/${t.externalId}`, { key: a.key })).status).toBe(204);
  });

  it('accepts force only as true or false', async () => {
    const t = await createTerminal(a, storeA.externalId);
    for (const q of ['?force=yes', '?force=0', '?force=True', '?extra=1']) {
      expectErrorShape(await call(stack.apiUrl, 'DELETE', `${terminalsPath(a, storeA.externalId)}/${t.externalId}${q}`, { key: a.key }), 400);
    }
    expect(await stack.db.terminal.findUnique({ where: { externalId: t.externalId } })).not.toBeNull();
  });
});

describe('tenant isolation: another business gets 404 on every terminal endpoint and changes nothing', () => {
  it('for each endpoint, with either business in the path', async () => {
    const t = await createTerminal(a, storeA.externalId, { label: 'Private till', serialNumber: uniqueId('PRIV') });
    const before = await stack.db.terminal.findUniqueOrThrow({ where: { externalId: t.externalId } });
    const countA = await terminalCount(a.merchant.id);
    const countB = await terminalCount(b.merchant.id);
    const storeB = await createStore(b, 'B store');
    for (const owner of [a, b]) {
      for (const storeExternalId of [storeA.externalId, storeB.externalId]) {
        if (owner === b && storeExternalId === storeB.externalId) continue; // B's own store: only the terminal is foreign
        const base = terminalsPath(owner, storeExternalId);
        const attempts: Array<[string, string, unknown?]> = [
          ['GET', base],
          ['POST', base, { label: 'Planted' }],
          ['GET', `${base}/${t.externalId}`],
          ['PUT', `${base}/${t.externalId}`, { label: 'Taken over' }],
          ['DELETE', `${base}/${t.externalId}`],
          ['DELETE', `${base}/${t.externalId}?force=true`],
        ];
        for (const [method, path, body] of attempts) {
          const res = await call(stack.apiUrl, method, path, { key: b.key, body });
          expectErrorShape(res, 404);
          expect(JSON.stringify(res.body)).not.toContain('Private till');
        }
      }
    }
    // A's terminal asked under B's own store.
    const underB = `${terminalsPath(b, storeB.externalId)}/${t.externalId}`;
    for (const method of ['GET', 'PUT', 'DELETE']) {
      expectErrorShape(await call(stack.apiUrl, method, underB, { key: b.key, body: method === 'PUT' ? { label: 'x' } : undefined }), 404);
    }
    expect(await stack.db.terminal.findUniqueOrThrow({ where: { externalId: t.externalId } })).toEqual(before);
    expect(await terminalCount(a.merchant.id)).toBe(countA);
    expect(await terminalCount(b.merchant.id)).toBe(countB);
  });
});

describe('other error statuses', () => {
  it('401 without a key, 403 without the stores scope, 405 for a wrong method', async () => {
    const t = await createTerminal(a, storeA.externalId);
    const item = `${terminalsPath(a, storeA.externalId)}/${t.externalId}`;
    expectErrorShape(await call(stack.apiUrl, 'GET', item), 401);
    expectErrorShape(await call(stack.apiUrl, 'POST', terminalsPath(a, storeA.externalId), { body: { label: 'x' } }), 401);
    const paymentsOnly = await createMerchantWithKey(stack.db, { scopes: ['payments', 'webhooks'] });
    expectErrorShape(await call(stack.apiUrl, 'GET', terminalsPath(paymentsOnly, 'store_any'), { key: paymentsOnly.key }), 403);
    expectErrorShape(await call(stack.apiUrl, 'PATCH', item, { key: a.key, body: { label: 'x' } }), 405);
    expectErrorShape(await call(stack.apiUrl, 'POST', item, { key: a.key, body: { label: 'x' } }), 405);
    expectErrorShape(await call(stack.apiUrl, 'PUT', terminalsPath(a, storeA.externalId), { key: a.key, body: { label: 'x' } }), 405);
    expect((await stack.db.terminal.findUniqueOrThrow({ where: { externalId: t.externalId } })).label).toBe('Till');
  });

  it('documents every terminal endpoint in the OpenAPI document', async () => {
    const paths = (await call(stack.apiUrl, 'GET', '/openapi.json')).body.paths;
    const base = '/api/merchants/{merchantExternalId}/stores/{storeExternalId}/terminals';
    expect(Object.keys(paths[base]).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths[`${base}/{terminalExternalId}`]).sort()).toEqual(['delete', 'get', 'put']);
  });
});
