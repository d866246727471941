/**
 * Acquirer accounts and routes for the fuzz run (docs/acquirers.md), created through the API with the
 * ADMIN sessions as a business would: so generated account and route bodies can name real
 * accounts and get past the 404 and the "no such account" 400 into the handlers.
 *
 * Only sandbox accounts are ever routed: a payment routed to a Stripe account would call Stripe
 * itself (the run has no stripe-mock), so fuzz_hooks.py puts Stripe and Adyen ids in route bodies
 * only to be refused. The victims are named by no route, for DELETE.
 */
import crypto from 'node:crypto';

export interface AccountRef {
  id: string;
  acquirer: 'sandbox' | 'stripe' | 'adyen';
  mode: 'live' | 'test';
}

export interface AcquirerFixtures {
  /** The main business's accounts the run stands on; the routes of both modes name its sandbox ones. */
  main: AccountRef[];
  /** Main business accounts no route names: the only ones DELETE may reach. */
  victims: AccountRef[];
  /** The other business's (404s, and 400s when a route names one). */
  other: AccountRef[];
  /** The main business's stores by mode, for the rules' storeExternalIds (a test store is made here). */
  stores: { live: string[]; test: string[] };
}

type Call = <T = any>(method: string, path: string, opts: { key?: string; token?: string; body?: unknown; expect?: number }) => Promise<T>;

const hex = (n: number): string => crypto.randomBytes(n).toString('hex');

/** Credentials of the right form for each acquirer and mode: random, and good for nothing outside this run. */
export function credentialsFor(acquirer: AccountRef['acquirer'], mode: AccountRef['mode']): Record<string, string> {
  if (acquirer === 'stripe') return { apiKey: `sk_${mode}_fuzz${hex(12)}`, webhookSecret: `whsec_fuzz${hex(12)}` };
  if (acquirer === 'adyen') return { apiKey: `AQE${hex(12)}`, hmacKey: hex(32).toUpperCase(), environment: mode === 'live' ? 'LIVE' : 'TEST' };
  return {};
}

export async function createAcquirerFixtures(
  call: Call,
  credentials: { admin: string; otherAdmin: string; testKey: string },
  main: { merchantExternalId: string; liveStores: string[] },
): Promise<AcquirerFixtures> {
  const sessions = credentials;
  // Test routes name test stores only: one of its own, with the test key.
  const testStore = (
    await call<{ externalId: string }>('POST', `/api/merchants/${main.merchantExternalId}/stores`, {
      key: credentials.testKey,
      body: { name: 'Fuzz Test Store', country: 'DE', timezone: 'Europe/Berlin', defaultCurrency: 'EUR' },
    })
  ).externalId;
  const account = async (token: string, name: string, acquirer: AccountRef['acquirer'], mode: AccountRef['mode']): Promise<AccountRef> => {
    const body = { name, acquirer, mode, merchantAccountId: `FUZZ-${name.replace(/\W+/g, '-').toUpperCase()}`, credentials: credentialsFor(acquirer, mode) };
    const { id } = await call<{ id: string }>('POST', '/api/dashboard/acquirer-accounts', { token, body });
    return { id, acquirer, mode };
  };
  const sandboxLive = await account(sessions.admin, 'fuzz sandbox live', 'sandbox', 'live');
  const sandboxTest = await account(sessions.admin, 'fuzz sandbox test', 'sandbox', 'test');
  const stripeTest = await account(sessions.admin, 'fuzz stripe test', 'stripe', 'test');
  const adyenLive = await account(sessions.admin, 'fuzz adyen live', 'adyen', 'live');
  const victims = [await account(sessions.admin, 'fuzz victim 1', 'sandbox', 'test'), await account(sessions.admin, 'fuzz victim 2', 'stripe', 'live')];
  const other = [await account(sessions.otherAdmin, 'fuzz other', 'sandbox', 'live')];

  // Live payments of the main store in EUR by a rule, the rest of each mode by the default.
  const routes = (mode: string, defaultAccountId: string, rules: unknown[] = []) =>
    call('PUT', '/api/dashboard/acquirer-routes', { token: sessions.admin, body: { mode, rules, defaultAccountId }, expect: 200 });
  await routes('live', sandboxLive.id, [
    {
      name: 'main store EUR',
      accountId: sandboxLive.id,
      match: { storeExternalIds: [main.liveStores[0]!], currencies: ['EUR'], minAmount: 0, maxAmount: 10000 },
    },
  ]);
  await routes('test', sandboxTest.id, [{ name: 'test store', accountId: sandboxTest.id, match: { storeExternalIds: [testStore], paymentModes: ['CARD'] } }]);
  return { main: [sandboxLive, sandboxTest, stripeTest, adyenLive], victims, other, stores: { live: main.liveStores, test: [testStore] } };
}

/** How far the run got into the acquirer endpoints, for the summary: saves show as counts above the fixtures' own. */
export async function acquirerReach(apiUrl: string, adminSession: string): Promise<string> {
  const get = async (path: string): Promise<any> => {
    const res = await fetch(`${apiUrl}${path}`, { headers: { authorization: `Bearer ${adminSession}` }, signal: AbortSignal.timeout(30_000) });
    return res.status === 200 ? res.json() : undefined;
  };
  const accounts = (await get('/api/dashboard/acquirer-accounts')) as unknown[] | undefined;
  const routes = async (mode: string): Promise<string> => {
    const r = (await get(`/api/dashboard/acquirer-routes?mode=${mode}`)) as { version: number; rules: unknown[] } | undefined;
    return r ? `${mode} routes version ${r.version} (${r.rules.length} rules)` : `${mode} routes unreadable`;
  };
  // The fixtures leave 6 accounts of the main business and version 1 of each mode's routes.
  return `${accounts ? accounts.length : '?'} accounts of the main business (6 from the fixtures), ${await routes('live')}, ${await routes('test')}`;
}
