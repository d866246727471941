import { signedInUser } from '../users/helpers';
import { createMerchantWithKey, uniqueId, type MerchantWithKey } from '../support/fixtures';
import { call, expectErrorShape } from '../support/http';
import type { TestStack } from '../support/stack';
import { withStackAndMerchant } from '../support/suite';

/**
 * Issue 22, part B (response amplification): metadata values and the whole metadata object are
 * bounded, and the plain lists of stores and terminals are one page each, so no list grows with
 * what a business stores. Stores and terminals share one rule (src/stores/metadata.ts).
 */
let stack: TestStack;
let m: MerchantWithKey;
withStackAndMerchant((started) => ({ stack, m } = started));

const storesPath = () => `/api/merchants/${m.merchant.externalId}/stores`;
const store = (metadata: unknown) => ({ name: 'Bounded', country: 'DE', timezone: 'Europe/Berlin', metadata });
let storeExternalId: string;
const terminalsPath = () => `${storesPath()}/${storeExternalId}/terminals`;

beforeAll(async () => {
  storeExternalId = (await call(stack.apiUrl, 'POST', storesPath(), { key: m.key, body: store({}) })).body.externalId;
});

describe('metadata values and size', () => {
  it.each([
    ['store POST', 'POST', () => storesPath(), (md: unknown) => store(md)],
    ['store PUT', 'PUT', () => `${storesPath()}/${storeExternalId}`, (md: unknown) => store(md)],
    ['terminal POST', 'POST', () => terminalsPath(), (md: unknown) => ({ label: 'Till', metadata: md })],
  ])('%s: a value of 501 characters is 400 naming metadata.<key>; 500 is stored', async (_, method, path, body) => {
    const refused = await call(stack.apiUrl, method, path(), { key: m.key, body: body({ note: 'n'.repeat(501) }) });
    expect(expectErrorShape(refused, 400)).toMatch(/^metadata\.note: value must be at most 500 characters/);
    const kept = await call(stack.apiUrl, method, path(), { key: m.key, body: body({ note: 'n'.repeat(500) }) });
    expect(kept.status).toBeLessThan(300);
    expect(kept.body.metadata).toEqual({ note: 'n'.repeat(500) });
  });

  it('counts a non-string value as its JSON text', async () => {
    const refused = await call(stack.apiUrl, 'POST', storesPath(), { key: m.key, body: store({ list: Array.from({ length: 300 }, () => 1) }) });
    expect(expectErrorShape(refused, 400)).toMatch(/^metadata\.list: value must be at most 500 characters .*has 601\)/);
  });

  it('refuses a whole object over 8192 bytes of JSON, each value within its limit', async () => {
    const big = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, 'v'.repeat(500)]));
    const refused = await call(stack.apiUrl, 'POST', terminalsPath(), { key: m.key, body: { label: 'Till', metadata: big } });
    expect(expectErrorShape(refused, 400)).toMatch(/^metadata: must be at most 8192 bytes as JSON/);
    const fits = Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`k${i}`, 'v'.repeat(500)]));
    expect((await call(stack.apiUrl, 'POST', terminalsPath(), { key: m.key, body: { label: 'Till', metadata: fits } })).status).toBe(201);
  });
});

describe('plain lists are one page', () => {
  let listed: Awaited<ReturnType<typeof createMerchantWithKey>>;
  let storeId: string;
  let storeExt: string;
  beforeAll(async () => {
    listed = await createMerchantWithKey(stack.db);
    const rows = Array.from({ length: 25 }, (_, i) => ({
      merchantId: listed.merchant.id,
      externalId: uniqueId('store'),
      name: `Store ${String(i).padStart(2, '0')}`,
      country: 'DE',
      timezone: 'Europe/Berlin',
    }));
    await stack.db.store.createMany({ data: rows });
    const first = await stack.db.store.findFirstOrThrow({ where: { merchantId: listed.merchant.id, name: 'Store 00' } });
    storeId = first.id;
    storeExt = first.externalId;
    await stack.db.terminal.createMany({
      data: Array.from({ length: 23 }, (_, i) => ({
        merchantId: listed.merchant.id,
        storeId,
        externalId: uniqueId('term'),
        label: `Till ${String(i).padStart(2, '0')}`,
      })),
    });
  });
  const base = () => `/api/merchants/${listed.merchant.externalId}/stores`;

  it('GET stores: a JSON array of 20 by default, X-Total-Count and a next link; page and size choose the page', async () => {
    const first = await call(stack.apiUrl, 'GET', base(), { key: listed.key });
    expect(first.status).toBe(200);
    expect(first.body.map((s: { name: string }) => s.name)).toEqual(Array.from({ length: 20 }, (_, i) => `Store ${String(i).padStart(2, '0')}`));
    expect(first.headers.get('x-total-count')).toBe('25');
    expect(first.headers.get('link')).toBe(`<${base()}?page=1&size=20>; rel="next"`);
    const last = await call(stack.apiUrl, 'GET', `${base()}?page=2&size=10`, { key: listed.key });
    expect(last.body.map((s: { name: string }) => s.name)).toEqual(['Store 20', 'Store 21', 'Store 22', 'Store 23', 'Store 24']);
    expect(last.headers.get('link')).toBeNull();
    expect((await call(stack.apiUrl, 'GET', `${base()}?size=100`, { key: listed.key })).body).toHaveLength(25);
  });

  it('GET stores: size over 100 (or 0, or a bad page) is 400 naming the parameter', async () => {
    expect(expectErrorShape(await call(stack.apiUrl, 'GET', `${base()}?size=101`, { key: listed.key }), 400)).toMatch(/size: must be at most 100/);
    expect(expectErrorShape(await call(stack.apiUrl, 'GET', `${base()}?size=0`, { key: listed.key }), 400)).toMatch(/size:/);
    expect(expectErrorShape(await call(stack.apiUrl, 'GET', `${base()}?page=-1`, { key: listed.key }), 400)).toMatch(/page:/);
  });

  it("GET a store's terminals: 20 by default, size over 100 is 400", async () => {
    const path = `${base()}/${storeExt}/terminals`;
    const first = await call(stack.apiUrl, 'GET', path, { key: listed.key });
    expect(first.body).toHaveLength(20);
    expect(first.headers.get('x-total-count')).toBe('23');
    expect((await call(stack.apiUrl, 'GET', `${path}?page=1`, { key: listed.key })).body.map((t: { label: string }) => t.label)).toEqual([
      'Till 20',
      'Till 21',
      'Till 22',
    ]);
    expect(expectErrorShape(await call(stack.apiUrl, 'GET', `${path}?size=101`, { key: listed.key }), 400)).toMatch(/size: must be at most 100/);
  });

  it("the dashboard's terminal list is bounded the same way", async () => {
    const { token } = await signedInUser(stack.db, stack.apiUrl, listed.merchant, ['OPERATIONS']);
    const path = `/api/dashboard/stores/${storeExt}/terminals`;
    expect((await call(stack.apiUrl, 'GET', path, { token })).body).toHaveLength(20);
    expect(expectErrorShape(await call(stack.apiUrl, 'GET', `${path}?size=101`, { token }), 400)).toMatch(/size:/);
  });
});
