/**
 * Acquirer accounts and routes for the fuzz run (contracts 10), created through the API with the
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
}

type Call = <T = any>(method: string, path: string, opts: { token?: string; body?: unknown; expect?: number }) => Promise<T>;

const hex = (n: number): string => crypto.randomBytes(n).toString('hex');

/** Credentials of the right form for each acquirer and mode: random, and good for nothing outside this run. */
export function credentialsFor(acquirer: AccountRef['acquirer'], mode: AccountRef['mode']): Record<string, string> {
  if (acquirer === 'stripe') return { apiKey: `sk_${mode}_fuzz${hex(12)}`, webhookSecret: `whsec_fuzz${hex(12)}` };
  if (acquirer === 'adyen') return { apiKey: `AQE${hex(12)}`, hmacKey: hex(32).toUpperCase(), environment: mode === 'live' ? 'LIVE' : 'TEST' };
  return {};
}

export async function createAcquirerFixtures(
  call: Call,
  sessions: { admin: string; otherAdmin: string },
  stores: { liveStoreExternalId: string },
): Promise<AcquirerFixtures> {
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
      match: { storeExternalIds: [stores.liveStoreExternalId], currencies: ['EUR'], minAmount: 0, maxAmount: 10000 },
    },
  ]);
  await routes('test', sandboxTest.id);
  return { main: [sandboxLive, sandboxTest, stripeTest, adyenLive], victims, other };
}
