import { enforceDeleteGuard } from '../../src/stores/deleteGuard';
import { createMerchantWithKey, uniqueId } from '../support/fixtures';
import { call, expectErrorShape } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { insertPayment as insertPaymentRow, type Merchant, type PaymentPlace } from './helpers';

/** Stores (docs/stores-and-terminals.md) against the real stack: every rule, every error status, tenant isolation. */

let stack: TestStack;
let a: Merchant;
let b: Merchant;

beforeAll(async () => {
  stack = await startTestStack();
  a = await createMerchantWithKey(stack.db);
  b = await createMerchantWithKey(stack.db);
});
afterAll(async () => {
  await stack?.stop();
});

const storesPath = (merchantExternalId: string) => `/api/merchants/${merchantExternalId}/stores`;
const validStore = (over: Record<string, unknown> = {}) => ({ name: 'Main Street', country: 'DE', timezone: 'Europe/Berlin', ...over });

async function createStore(m: Merchant, body: Record<string, unknown> = validStore()) {
  const res = await call(stack.apiUrl, 'POST', storesPath(m.merchant.externalId), { key: m.key, body });
  expect(res.status).toBe(201);
  return res.body as Record<string, any>;
}

const storeCount = (merchantId: string) => stack.db.store.count({ where: { merchantId } });

const insertPayment = (m: Merchant, at: PaymentPlace, opts: { hoursAgo?: number; status?: string } = {}) => insertPaymentRow(stack.db, m, at, opts);

describe('POST /api/merchants/{merchantExternalId}/stores', () => {
  it('registers a store, normalises country, zone and currency, and returns externalId with the submitted fields', async () => {
    const metadata = { region: 'north', floors: 2, tags: ['flagship', 'late'], nested: { open: true, note: null }, ratio: 0.1 };
    const res = await call(stack.apiUrl, 'POST', storesPath(a.merchant.externalId), {
      key: a.key,
      body: {
        name: 'Berlin Mitte',
        addressLine1: 'Friedrichstr. 1',
        city: 'Berlin',
        postalCode: '10117',
        country: 'de',
        timezone: 'europe/berlin',
        defaultCurrency: 'eur',
        mcc: '5411',
        metadata,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      externalId: expect.stringMatching(/^store_[0-9A-Za-z]{20}$/),
      name: 'Berlin Mitte',
      addressLine1: 'Friedrichstr. 1',
      city: 'Berlin',
      postalCode: '10117',
      country: 'DE',
      timezone: 'Europe/Berlin',
      defaultCurrency: 'EUR',
      mcc: '5411',
      metadata,
      status: 'ACTIVE',
      tipping: { enabled: false, percentages: [10, 15, 20], allowCustom: true },
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    expect(res.headers.get('location')).toBe(`${storesPath(a.merchant.externalId)}/${res.body.externalId}`);

    const read = await call(stack.apiUrl, 'GET', `${storesPath(a.merchant.externalId)}/${res.body.externalId}`, { key: a.key });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
    const row = await stack.db.store.findUniqueOrThrow({ where: { externalId: res.body.externalId } });
    expect(row).toMatchObject({ country: 'DE', timezone: 'Europe/Berlin', defaultCurrency: 'EUR', merchantId: a.merchant.id });
  });

  it('needs only name, country and timezone; unset fields come back null, metadata {}, status ACTIVE', async () => {
    const body = await createStore(a, { name: 'Kiosk', country: 'fr', timezone: 'UTC', addressLine1: null });
    expect(body).toMatchObject({
      name: 'Kiosk',
      country: 'FR',
      timezone: 'UTC',
      addressLine1: null,
      city: null,
      postalCode: null,
      defaultCurrency: null,
      mcc: null,
      metadata: {},
      status: 'ACTIVE',
    });
    expect(body).not.toHaveProperty('id');
    expect(body).not.toHaveProperty('merchantId');
  });

  it('accepts every supported currency, a zone link, status INACTIVE and metadata at its limits', async () => {
    for (const currency of ['USD', 'GBP', 'CHF', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'JPY']) {
      expect((await createStore(a, validStore({ defaultCurrency: currency }))).defaultCurrency).toBe(currency);
    }
    expect((await createStore(a, validStore({ timezone: 'Asia/Calcutta' }))).timezone).toBe('Asia/Calcutta');
    expect((await createStore(a, validStore({ timezone: 'America/Argentina/Buenos_Aires' }))).timezone).toBe('America/Argentina/Buenos_Aires');
    expect((await createStore(a, validStore({ status: 'INACTIVE' }))).status).toBe('INACTIVE');
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, { i }]));
    const longKey = { ['x'.repeat(100)]: 'value' };
    expect((await createStore(a, validStore({ metadata: fifty }))).metadata).toEqual(fifty);
    expect((await createStore(a, validStore({ metadata: longKey }))).metadata).toEqual(longKey);
    expect((await createStore(a, validStore({ mcc: '0742' }))).mcc).toBe('0742');
  });

  const fiftyOne = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ['name', { name: undefined }, 'name: is required'],
    ['name', { name: '   ' }, 'name: must not be blank'],
    ['name', { name: 42 }, 'name:'],
    ['name', { name: 'n'.repeat(201) }, 'name: must be at most 200 characters'],
    ['addressLine1', { addressLine1: 12 }, 'addressLine1:'],
    ['city', { city: '' }, 'city: must not be blank'],
    ['postalCode', { postalCode: 'p'.repeat(21) }, 'postalCode: must be at most 20 characters'],
    ['country', { country: undefined }, 'country:'],
    ['country', { country: 'XX' }, 'country: must be a two-letter ISO 3166-1 country code'],
    ['country', { country: 'DEU' }, 'country: must be a two-letter ISO 3166-1 country code'],
    ['country', { country: '276' }, 'country:'],
    ['country', { country: 'UK' }, 'country:'],
    ['timezone', { timezone: undefined }, 'timezone:'],
    ['timezone', { timezone: 'Mars/Olympus_Mons' }, 'timezone: must be an IANA time zone id'],
    ['timezone', { timezone: '+01:00' }, 'timezone:'],
    ['timezone', { timezone: '' }, 'timezone:'],
    ['defaultCurrency', { defaultCurrency: 'ABC' }, 'defaultCurrency: must be one of the supported currencies'],
    ['defaultCurrency', { defaultCurrency: 'AUD' }, 'defaultCurrency:'],
    ['mcc', { mcc: '541' }, 'mcc: must be exactly 4 digits'],
    ['mcc', { mcc: '54111' }, 'mcc: must be exactly 4 digits'],
    ['mcc', { mcc: '54a1' }, 'mcc: must be exactly 4 digits'],
    ['mcc', { mcc: 5411 }, 'mcc:'],
    ['metadata', { metadata: [1, 2] }, 'metadata: must be a JSON object'],
    ['metadata', { metadata: 'text' }, 'metadata: must be a JSON object'],
    ['metadata', { metadata: fiftyOne }, 'metadata: must have at most 50 entries'],
    ['metadata', { metadata: { ['k'.repeat(101)]: 1 } }, 'metadata: keys must be at most 100 characters'],
    ['status', { status: 'CLOSED' }, 'status: must be ACTIVE or INACTIVE'],
    ['status', { status: 'active' }, 'status:'],
    ['externalId', { externalId: 'store_mine' }, 'externalId'],
    ['unknown field', { colour: 'blue' }, 'colour'],
  ];
  it.each(invalid)('rejects an invalid %s with 400 naming the field, and writes nothing', async (_field, over, expected) => {
    const before = await storeCount(a.merchant.id);
    const res = await call(stack.apiUrl, 'POST', storesPath(a.merchant.externalId), { key: a.key, body: validStore(over) });
    expect(expectErrorShape(res, 400)).toContain(expected);
    expect(await storeCount(a.merchant.id)).toBe(before);
  });

  it('names every invalid field in one message', async () => {
    const res = await call(stack.apiUrl, 'POST', storesPath(a.merchant.externalId), {
      key: a.key,
      body: { country: 'ZZ', timezone: 'Nowhere/Else', mcc: '1' },
    });
    const message = expectErrorShape(res, 400);
    for (const field of ['name:', 'country:', 'timezone:', 'mcc:']) expect(message).toContain(field);
  });

  it('answers malformed JSON, a JSON array and a missing body with 400 and writes nothing', async () => {
    const before = await storeCount(a.merchant.id);
    expectErrorShape(await call(stack.apiUrl, 'POST', storesPath(a.merchant.externalId), { key: a.key, rawBody: '{"name": "x",' }), 400);
    expectErrorShape(await call(stack.apiUrl, 'POST', storesPath(a.merchant.externalId), { key: a.key, body: [validStore()] }), 400);
    expectErrorShape(await call(stack.apiUrl, 'POST', storesPath(a.merchant.externalId), { key: a.key }), 400);
    expect(await storeCount(a.merchant.id)).toBe(before);
  });
});

describe('GET one store and PUT', () => {
  it('answers 404 for an unknown store', async () => {
    expectErrorShape(await call(stack.apiUrl, 'GET', `${storesPath(a.merchant.externalId)}/store_doesnotexist`, { key: a.key }), 404);
    expectErrorShape(await call(stack.apiUrl, 'PUT', `${storesPath(a.merchant.externalId)}/store_doesnotexist`, { key: a.key, body: validStore() }), 404);
  });

  it('PUT replaces the submitted fields: omitted optional ones are cleared, an omitted status is kept', async () => {
    const created = await createStore(a, validStore({ city: 'Berlin', mcc: '5411', defaultCurrency: 'EUR', metadata: { a: 1 }, status: 'INACTIVE' }));
    const path = `${storesPath(a.merchant.externalId)}/${created.externalId}`;
    const res = await call(stack.apiUrl, 'PUT', path, { key: a.key, body: { name: 'Renamed', country: 'at', timezone: 'Europe/Vienna', postalCode: '1010' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      externalId: created.externalId,
      name: 'Renamed',
      country: 'AT',
      timezone: 'Europe/Vienna',
      postalCode: '1010',
      city: null,
      mcc: null,
      defaultCurrency: null,
      metadata: {},
      status: 'INACTIVE',
      createdAt: created.createdAt,
    });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));

    const active = await call(stack.apiUrl, 'PUT', path, { key: a.key, body: validStore({ status: 'ACTIVE' }) });
    expect(active.body.status).toBe('ACTIVE');
    expect((await call(stack.apiUrl, 'GET', path, { key: a.key })).body).toEqual(active.body);
  });

  it('a rejected PUT changes nothing', async () => {
    const created = await createStore(a, validStore({ city: 'Hamburg' }));
    const path = `${storesPath(a.merchant.externalId)}/${created.externalId}`;
    const before = await stack.db.store.findUniqueOrThrow({ where: { externalId: created.externalId } });
    for (const body of [validStore({ country: 'QQ' }), validStore({ unknown: 1 }), { name: 'Only a name' }, validStore({ metadata: fiftyOneEntries() })]) {
      expectErrorShape(await call(stack.apiUrl, 'PUT', path, { key: a.key, body }), 400);
    }
    expectErrorShape(await call(stack.apiUrl, 'PUT', path, { key: a.key, rawBody: 'not json' }), 400);
    expect(await stack.db.store.findUniqueOrThrow({ where: { externalId: created.externalId } })).toEqual(before);
  });
});

function fiftyOneEntries() {
  return Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
}

describe('GET list: plain array, alphabetical', () => {
  it('lists only the business own stores, by name without regard to case', async () => {
    const m = await createMerchantWithKey(stack.db);
    for (const name of ['banana', 'Apple', 'cherry', 'apricot', 'Banana split']) await createStore(m, validStore({ name }));
    const res = await call(stack.apiUrl, 'GET', storesPath(m.merchant.externalId), { key: m.key });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.map((s: any) => s.name)).toEqual(['Apple', 'apricot', 'banana', 'Banana split', 'cherry']);
  });

  it('is an empty array for a business without stores', async () => {
    const m = await createMerchantWithKey(stack.db);
    expect((await call(stack.apiUrl, 'GET', storesPath(m.merchant.externalId), { key: m.key })).body).toEqual([]);
  });
});

describe('GET search', () => {
  let m: Merchant;
  const ids: Record<string, string> = {};
  const search = (query: string) => call(stack.apiUrl, 'GET', `${storesPath(m.merchant.externalId)}/search${query}`, { key: m.key });
  const names = (res: { body: any }) => res.body.content.map((s: any) => s.name);

  beforeAll(async () => {
    m = await createMerchantWithKey(stack.db);
    const seed: Array<[string, Record<string, unknown>]> = [
      ['Alpha', { city: 'Berlin', postalCode: '10115', country: 'DE' }],
      ['bravo', { city: 'Munich', postalCode: '80331', country: 'DE', status: 'INACTIVE' }],
      ['Charlie 100%', { city: 'Vienna', postalCode: '1010', country: 'AT' }],
      ['delta', { city: 'Paris', postalCode: '75001', country: 'FR' }],
      ['Echo', { city: 'berlin', postalCode: '10245', country: 'DE' }],
    ];
    let minute = 0;
    for (const [name, over] of seed) {
      const s = await createStore(m, validStore({ name, ...over }));
      ids[name] = s.externalId;
      // Distinct creation times, oldest first in seed order (so createdAt sorting is deterministic).
      await stack.db.store.update({ where: { externalId: s.externalId }, data: { createdAt: new Date(Date.UTC(2026, 0, 1, 0, minute++)) } });
    }
    await call(stack.apiUrl, 'POST', `${storesPath(m.merchant.externalId)}/${ids.Alpha}/terminals`, { key: m.key, body: { label: 'T1' } });
    await call(stack.apiUrl, 'POST', `${storesPath(m.merchant.externalId)}/${ids.delta}/terminals`, { key: m.key, body: { label: 'T1' } });
    // Another business's look-alike store never shows up.
    await createStore(b, validStore({ name: 'Alpha', city: 'Berlin' }));
  });

  it('defaults to every store by name, page 0, size 20, in the paged shape', async () => {
    const res = await search('');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ totalElements: 5, totalPages: 1, page: 0, size: 20 });
    expect(names(res)).toEqual(['Alpha', 'bravo', 'Charlie 100%', 'delta', 'Echo']);
  });

  it('matches q case-insensitively over name, city, externalId and postalCode', async () => {
    // Long enough that a random base62 externalId cannot contain it by chance (ids are searched too).
    expect(names(await search('?q=aLPHa'))).toEqual(['Alpha']);
    expect(names(await search('?q=BERLIN'))).toEqual(['Alpha', 'Echo']);
    expect(names(await search('?q=8033'))).toEqual(['bravo']);
    expect(names(await search(`?q=${ids.delta!.slice(-8).toLowerCase()}`))).toContain('delta');
    expect(names(await search('?q=100%25'))).toEqual(['Charlie 100%']); // % is taken literally
    expect(names(await search('?q=%25'))).toEqual(['Charlie 100%']);
    expect((await search('?q=nothing-like-this')).body).toMatchObject({ content: [], totalElements: 0, totalPages: 0 });
  });

  it('filters by status, country (any case) and hasTerminals, and combines filters', async () => {
    expect(names(await search('?status=INACTIVE'))).toEqual(['bravo']);
    expect(names(await search('?status=ACTIVE'))).toEqual(['Alpha', 'Charlie 100%', 'delta', 'Echo']);
    expect(names(await search('?country=de'))).toEqual(['Alpha', 'bravo', 'Echo']);
    expect(names(await search('?hasTerminals=true'))).toEqual(['Alpha', 'delta']);
    expect(names(await search('?hasTerminals=false'))).toEqual(['bravo', 'Charlie 100%', 'Echo']);
    expect(names(await search('?country=DE&hasTerminals=false&status=ACTIVE&q=berlin'))).toEqual(['Echo']);
  });

  it('sorts by name, -name, createdAt and -createdAt', async () => {
    expect(names(await search('?sort=name'))).toEqual(['Alpha', 'bravo', 'Charlie 100%', 'delta', 'Echo']);
    expect(names(await search('?sort=-name'))).toEqual(['Echo', 'delta', 'Charlie 100%', 'bravo', 'Alpha']);
    expect(names(await search('?sort=createdAt'))).toEqual(['Alpha', 'bravo', 'Charlie 100%', 'delta', 'Echo']);
    expect(names(await search('?sort=-createdAt'))).toEqual(['Echo', 'delta', 'Charlie 100%', 'bravo', 'Alpha']);
  });

  it('pages 0-based with totals', async () => {
    const first = await search('?size=2&page=0');
    expect(first.body).toMatchObject({ totalElements: 5, totalPages: 3, page: 0, size: 2 });
    expect(names(first)).toEqual(['Alpha', 'bravo']);
    expect(names(await search('?size=2&page=2'))).toEqual(['Echo']);
    expect((await search('?size=2&page=7')).body).toMatchObject({ content: [], totalElements: 5, totalPages: 3, page: 7 });
    expect((await search('?size=100')).body.size).toBe(100);
  });

  const badQueries: Array<[string, string]> = [
    ['?size=101', 'size: must be at most 100'],
    ['?size=0', 'size: must be at least 1'],
    ['?size=ten', 'size:'],
    ['?page=-1', 'page:'],
    ['?page=1.5', 'page:'],
    ['?sort=city', 'sort: must be one of name, -name, createdAt, -createdAt'],
    ['?status=OPEN', 'status:'],
    ['?hasTerminals=yes', 'hasTerminals: must be true or false'],
    ['?country=ZZ', 'country:'],
    ['?q=' + 'q'.repeat(201), 'q:'],
    ['?status=ACTIVE&status=INACTIVE', 'status:'],
    ['?colour=blue', 'colour'],
  ];
  const shortened = badQueries.map(([query, expected]) => [query.length > 40 ? `${query.slice(0, 12)}...(${query.length} chars)` : query, query, expected]);
  it.each(shortened)('rejects %s with 400 naming the parameter', async (_title, query, expected) => {
    expect(expectErrorShape(await search(query), 400)).toContain(expected);
  });
});

describe('DELETE a store', () => {
  it('deletes with 204, removes its terminals and their device links, and the store is gone', async () => {
    const store = await createStore(a);
    const path = `${storesPath(a.merchant.externalId)}/${store.externalId}`;
    const t = await call(stack.apiUrl, 'POST', `${path}/terminals`, { key: a.key, body: { label: 'Till', serialNumber: uniqueId('SN') } });
    await stack.db.terminal.update({ where: { externalId: t.body.externalId }, data: { deviceId: uniqueId('dev'), linkedAt: new Date() } });

    const res = await call(stack.apiUrl, 'DELETE', path, { key: a.key });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expectErrorShape(await call(stack.apiUrl, 'GET', path, { key: a.key }), 404);
    expectErrorShape(await call(stack.apiUrl, 'DELETE', path, { key: a.key }), 404);
    expect(await stack.db.store.findUnique({ where: { externalId: store.externalId } })).toBeNull();
    expect(await stack.db.terminal.findUnique({ where: { externalId: t.body.externalId } })).toBeNull();
  });

  it('refuses an unforced delete after a payment in the last 24 hours (409, nothing removed); force=true deletes and keeps the payment', async () => {
    const store = await createStore(a);
    const path = `${storesPath(a.merchant.externalId)}/${store.externalId}`;
    const t = await call(stack.apiUrl, 'POST', `${path}/terminals`, { key: a.key, body: { label: 'Till' } });
    const storeRow = await stack.db.store.findUniqueOrThrow({ where: { externalId: store.externalId } });
    const terminalRow = await stack.db.terminal.findUniqueOrThrow({ where: { externalId: t.body.externalId } });
    const payment = await insertPayment(
      a,
      { storeId: storeRow.id, storeExternalId: store.externalId, terminalId: terminalRow.id, terminalExternalId: t.body.externalId },
      { hoursAgo: 23 },
    );

    expect(expectErrorShape(await call(stack.apiUrl, 'DELETE', path, { key: a.key }), 409)).toMatch(/force=true/);
    expectErrorShape(await call(stack.apiUrl, 'DELETE', `${path}?force=false`, { key: a.key }), 409);
    expect(await stack.db.store.findUnique({ where: { id: storeRow.id } })).not.toBeNull();
    expect(await stack.db.terminal.findUnique({ where: { id: terminalRow.id } })).not.toBeNull();

    expect((await call(stack.apiUrl, 'DELETE', `${path}?force=true`, { key: a.key })).status).toBe(204);
    expect(await stack.db.store.findUnique({ where: { id: storeRow.id } })).toBeNull();
    expect(await stack.db.terminal.findUnique({ where: { id: terminalRow.id } })).toBeNull();
    const kept = await stack.db.payment.findUniqueOrThrow({ where: { id: payment.id } });
    expect(kept).toMatchObject({
      storeId: null,
      terminalId: null,
      storeExternalId: store.externalId,
      terminalExternalId: t.body.externalId,
      status: 'CAPTURED',
    });
  });

  it('allows an unforced delete when the payments are older than the window', async () => {
    const store = await createStore(a);
    const row = await stack.db.store.findUniqueOrThrow({ where: { externalId: store.externalId } });
    const old = await insertPayment(a, { storeId: row.id, storeExternalId: store.externalId }, { hoursAgo: 25 });
    expect((await call(stack.apiUrl, 'DELETE', `${storesPath(a.merchant.externalId)}/${store.externalId}`, { key: a.key })).status).toBe(204);
    expect((await stack.db.payment.findUniqueOrThrow({ where: { id: old.id } })).storeId).toBeNull();
  });

  it('counts a payment still open on the device however old, and one captured inside the window', async () => {
    const open = await createStore(a);
    const openRow = await stack.db.store.findUniqueOrThrow({ where: { externalId: open.externalId } });
    await insertPayment(a, { storeId: openRow.id, storeExternalId: open.externalId }, { hoursAgo: 30, status: 'AWAITING_TERMINAL' });
    expectErrorShape(await call(stack.apiUrl, 'DELETE', `${storesPath(a.merchant.externalId)}/${open.externalId}`, { key: a.key }), 409);

    const late = await createStore(a);
    const lateRow = await stack.db.store.findUniqueOrThrow({ where: { externalId: late.externalId } });
    const p = await insertPayment(a, { storeId: lateRow.id, storeExternalId: late.externalId }, { hoursAgo: 30, status: 'AUTHORIZED' });
    await stack.db.payment.update({ where: { id: p.id }, data: { status: 'CAPTURED', capturedAt: new Date(Date.now() - 3600_000) } });
    expectErrorShape(await call(stack.apiUrl, 'DELETE', `${storesPath(a.merchant.externalId)}/${late.externalId}`, { key: a.key }), 409);
  });

  it('ignores payments of other stores', async () => {
    const busy = await createStore(a);
    const busyRow = await stack.db.store.findUniqueOrThrow({ where: { externalId: busy.externalId } });
    await insertPayment(a, { storeId: busyRow.id, storeExternalId: busy.externalId }, { hoursAgo: 1 });
    const quiet = await createStore(a);
    expect((await call(stack.apiUrl, 'DELETE', `${storesPath(a.merchant.externalId)}/${quiet.externalId}`, { key: a.key })).status).toBe(204);
  });

  it('accepts force only as true or false', async () => {
    const store = await createStore(a);
    const path = `${storesPath(a.merchant.externalId)}/${store.externalId}`;
    for (const q of ['?force=yes', '?force=1', '?force=TRUE', '?force=', '?force=true&force=true', '?forced=true']) {
      expect(expectErrorShape(await call(stack.apiUrl, 'DELETE', path + q, { key: a.key }), 400)).toMatch(/force/);
    }
    expect(await stack.db.store.findUnique({ where: { externalId: store.externalId } })).not.toBeNull();
  });
});

describe('delete guard decision', () => {
  it('refuses (409) when recent activity cannot be determined, and force skips the check', async () => {
    const failing = () => Promise.reject(new Error('payments query failed'));
    await expect(enforceDeleteGuard('store', false, 24, failing)).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/could not be determined/),
    });
    await expect(enforceDeleteGuard('terminal', true, 24, failing)).resolves.toBeUndefined();
    await expect(enforceDeleteGuard('store', false, 24, async () => true)).rejects.toMatchObject({ status: 409 });
    await expect(enforceDeleteGuard('store', false, 24, async () => false)).resolves.toBeUndefined();
  });
});

describe('tenant isolation: another business gets 404 on every store endpoint and changes nothing', () => {
  it('for each endpoint, with either business in the path', async () => {
    const store = await createStore(a, validStore({ name: 'Private', metadata: { secret: 'x' } }));
    const row = await stack.db.store.findUniqueOrThrow({ where: { externalId: store.externalId } });
    const countA = await storeCount(a.merchant.id);
    const countB = await storeCount(b.merchant.id);
    for (const merchantExternalId of [a.merchant.externalId, b.merchant.externalId]) {
      const base = storesPath(merchantExternalId);
      const item = `${base}/${store.externalId}`;
      const attempts: Array<[string, string, unknown?]> = [
        ['GET', item],
        ['PUT', item, validStore({ name: 'Taken over' })],
        ['DELETE', item],
        ['DELETE', `${item}?force=true`],
      ];
      // The collection endpoints under B's own path are B's to use (checked below).
      if (merchantExternalId === a.merchant.externalId) {
        attempts.push(['GET', base], ['GET', `${base}/search?q=Private`], ['POST', base, validStore({ name: 'Planted' })]);
      }
      for (const [method, path, body] of attempts) {
        const res = await call(stack.apiUrl, method, path, { key: b.key, body });
        expectErrorShape(res, 404);
        expect(JSON.stringify(res.body)).not.toContain('Private');
      }
    }
    // B's own list and search never show A's store.
    const ownSearch = await call(stack.apiUrl, 'GET', `${storesPath(b.merchant.externalId)}/search?q=${store.externalId}`, { key: b.key });
    expect(ownSearch.body.totalElements).toBe(0);
    const ownList = await call(stack.apiUrl, 'GET', storesPath(b.merchant.externalId), { key: b.key });
    expect(ownList.status).toBe(200);
    expect(ownList.body.map((s: any) => s.externalId)).not.toContain(store.externalId);
    expect(await stack.db.store.findUniqueOrThrow({ where: { id: row.id } })).toEqual(row);
    expect(await storeCount(a.merchant.id)).toBe(countA);
    expect(await storeCount(b.merchant.id)).toBe(countB);
  });

  it('answers 404 for a business that does not exist', async () => {
    expectErrorShape(await call(stack.apiUrl, 'GET', storesPath('no-such-business'), { key: a.key }), 404);
  });
});

describe('other error statuses', () => {
  it('401 without a key, 403 for a key without the stores scope, 405 for a wrong method', async () => {
    const store = await createStore(a);
    const item = `${storesPath(a.merchant.externalId)}/${store.externalId}`;
    expectErrorShape(await call(stack.apiUrl, 'GET', storesPath(a.merchant.externalId)), 401);
    expectErrorShape(await call(stack.apiUrl, 'POST', storesPath(a.merchant.externalId), { body: validStore() }), 401);
    const paymentsOnly = await createMerchantWithKey(stack.db, { scopes: ['payments'] });
    expectErrorShape(await call(stack.apiUrl, 'GET', storesPath(paymentsOnly.merchant.externalId), { key: paymentsOnly.key }), 403);
    expectErrorShape(await call(stack.apiUrl, 'POST', storesPath(paymentsOnly.merchant.externalId), { key: paymentsOnly.key, body: validStore() }), 403);
    expect(await storeCount(paymentsOnly.merchant.id)).toBe(0);
    const wrongMethod = await call(stack.apiUrl, 'PATCH', item, { key: a.key, body: { name: 'x' } });
    expect(expectErrorShape(wrongMethod, 405)).toBe('method not allowed');
    expect(wrongMethod.headers.get('allow')).toBe('HEAD, GET, PUT, DELETE');
    expectErrorShape(await call(stack.apiUrl, 'POST', item, { key: a.key, body: validStore() }), 405);
    expectErrorShape(await call(stack.apiUrl, 'DELETE', storesPath(a.merchant.externalId), { key: a.key }), 405);
    expect(await stack.db.store.findUnique({ where: { externalId: store.externalId } })).not.toBeNull();
  });

  it('documents every store endpoint in the OpenAPI document', async () => {
    const doc = await call(stack.apiUrl, 'GET', '/openapi.json');
    const paths = doc.body.paths;
    expect(Object.keys(paths['/api/merchants/{merchantExternalId}/stores']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths['/api/merchants/{merchantExternalId}/stores/search'])).toEqual(['get']);
    expect(Object.keys(paths['/api/merchants/{merchantExternalId}/stores/{storeExternalId}']).sort()).toEqual(['delete', 'get', 'put']);
    expect(doc.body.components.schemas.StoreInput.additionalProperties).toBe(false);
  });
});

describe('with a small body limit and a 1-hour delete guard', () => {
  let tuned: TestStack;
  beforeAll(async () => {
    tuned = await startTestStack({ BODY_LIMIT_BYTES: '2048', DELETE_GUARD_HOURS: '1' });
  });
  afterAll(async () => {
    await tuned?.stop();
  });

  it('answers a body over BODY_LIMIT_BYTES with 413 and writes nothing', async () => {
    const m = await createMerchantWithKey(tuned.db);
    const res = await call(tuned.apiUrl, 'POST', storesPath(m.merchant.externalId), { key: m.key, body: validStore({ metadata: { blob: 'x'.repeat(4096) } }) });
    expectErrorShape(res, 413);
    expect(await tuned.db.store.count({ where: { merchantId: m.merchant.id } })).toBe(0);
    expect(
      (await call(tuned.apiUrl, 'POST', storesPath(m.merchant.externalId), { key: m.key, body: validStore({ metadata: { blob: 'x'.repeat(500) } }) })).status,
    ).toBe(201);
  });

  it('takes the delete guard window from DELETE_GUARD_HOURS', async () => {
    const m = await createMerchantWithKey(tuned.db);
    const create = async () => (await call(tuned.apiUrl, 'POST', storesPath(m.merchant.externalId), { key: m.key, body: validStore() })).body;
    const recent = await create();
    const older = await create();
    const row = async (s: any) => tuned.db.store.findUniqueOrThrow({ where: { externalId: s.externalId } });
    const pay = async (s: any, hoursAgo: number) =>
      insertPaymentRow(tuned.db, m, { storeId: (await row(s)).id, storeExternalId: s.externalId }, { hoursAgo, status: 'REFUSED', amount: '1' });
    await pay(recent, 0.5);
    await pay(older, 2);
    expectErrorShape(await call(tuned.apiUrl, 'DELETE', `${storesPath(m.merchant.externalId)}/${recent.externalId}`, { key: m.key }), 409);
    expect((await call(tuned.apiUrl, 'DELETE', `${storesPath(m.merchant.externalId)}/${older.externalId}`, { key: m.key })).status).toBe(204);
  });
});
