/**
 * Realistic data for the fuzzer to reach deep paths: two businesses ("main" and "other", for the
 * cross-business 404s), users, sessions, API keys, stores, linked terminals, webhook configs,
 * an open and a captured payment, webhook events, acquirer accounts and routes
 * (./acquirerFixtures.ts). What an operator does (merchant, users, keys, device links) goes
 * through src/operator; everything else through the HTTP API, as a merchant would.
 *
 * Resources the fuzzer may destroy (DELETE, revoke, password or MFA reset, logout) come as
 * separate "victims", so the fixtures the rest of the run stands on stay alive; the hooks only ever
 * send destructive calls at victims (see fuzz_hooks.py).
 */
import crypto from 'node:crypto';
import { createDb } from '../../src/db/client';
import { type AcquirerFixtures, createAcquirerFixtures } from './acquirerFixtures';
import { createApiKey, createMerchant, createUser, linkTerminal } from '../../src/operator';

export interface StoreRef {
  merchantExternalId: string;
  storeExternalId: string;
}

export interface TerminalRef extends StoreRef {
  terminalExternalId: string;
}

/** What the hooks read (FUZZ_FIXTURES). Keys of credentials are secrets of this throw-away stack only. */
export interface Fixtures {
  merchantIds: string[];
  merchants: { main: string; other: string };
  credentials: {
    liveKey: string;
    testKey: string;
    otherKey: string;
    adminSession: string;
    viewerSession: string;
    otherAdminSession: string;
    logoutSession: string;
  };
  users: { admin: number; viewer: number; victims: number[]; other: number; victimUsernames: string[] };
  apiKeys: { live: string; test: string; victims: string[]; other: string };
  stores: { main: StoreRef[]; victims: StoreRef[]; other: StoreRef[] };
  terminals: { main: TerminalRef[]; victims: TerminalRef[]; other: TerminalRef[] };
  webhookConfigs: { main: string; victims: string[]; other: string };
  webhookEvents: { main: string[]; other: string[] };
  payments: { main: string[]; other: string[]; references: string[] };
  acquirerAccounts: AcquirerFixtures;
  receiverUrl: string;
}

const rand = (): string => crypto.randomBytes(4).toString('hex');
const PASSWORD = `Fuzz-${crypto.randomBytes(6).toString('hex')}-2026`;

class Api {
  constructor(
    readonly base: string,
    readonly log: (line: string) => void,
  ) {}

  /** Retried on a 5xx, as docs/payments.md tells a client to (creations are idempotent by reference); each retry is logged. */
  async call<T = any>(method: string, path: string, opts: { key?: string; token?: string; body?: unknown; expect?: number } = {}): Promise<T> {
    const headers: Record<string, string> = {};
    if (opts.key) headers['x-api-key'] = opts.key;
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const expected = opts.expect ?? (method === 'POST' ? 201 : 200);
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(`${this.base}${path}`, {
        method,
        headers,
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        signal: AbortSignal.timeout(60_000),
      });
      const text = await res.text();
      if (res.status === expected) return (text ? JSON.parse(text) : undefined) as T;
      const problem = `fixture: ${method} ${path} answered ${res.status} (expected ${expected}): ${text.slice(0, 300)}`;
      if (res.status < 500 || attempt >= 3) throw new Error(problem);
      this.log(`${problem}; retrying`);
      await new Promise((r) => setTimeout(r, 1000 * attempt));
    }
  }
}

async function until<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`fixture: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

export async function createFixtures(opts: {
  apiUrl: string;
  sandboxUrl: string;
  databaseUrl: string;
  receiverUrl: string;
  log: (line: string) => void;
}): Promise<Fixtures> {
  const api = new Api(opts.apiUrl, opts.log);
  const db = createDb(opts.databaseUrl, { poolSize: 1 });
  try {
    const run = rand();
    const main = await createMerchant(db, { externalId: `fuzz-main-${run}`, name: 'Fuzz Main Business' });
    const other = await createMerchant(db, { externalId: `fuzz-other-${run}`, name: 'Fuzz Other Business' });

    const user = (merchant: string, name: string, roles: string[]) =>
      createUser(db, { merchantExternalId: merchant, username: `fuzz-${name}-${run}`, password: PASSWORD, roles, actorId: 'fuzz' });
    const admin = await user(main.externalId, 'admin', ['ADMIN']);
    const viewer = await user(main.externalId, 'viewer', ['USER']);
    const victimUsers = [await user(main.externalId, 'victim1', ['USER']), await user(main.externalId, 'victim2', ['FINANCE'])];
    const otherAdmin = await user(other.externalId, 'other-admin', ['ADMIN']);

    const key = (merchant: string, name: string, mode = 'live') => createApiKey(db, { merchantExternalId: merchant, name, mode, actorId: 'fuzz' });
    const liveKey = await key(main.externalId, 'fuzz live');
    const testKey = await key(main.externalId, 'fuzz test', 'test');
    const victimKeys = [await key(main.externalId, 'fuzz victim 1'), await key(main.externalId, 'fuzz victim 2', 'test')];
    const otherKey = await key(other.externalId, 'fuzz other');

    const login = async (username: string): Promise<string> =>
      (await api.call<{ token: string }>('POST', '/api/auth/login', { body: { username, password: PASSWORD }, expect: 200 })).token;

    // Stores and terminals, through the API as the merchant's server does.
    const storeBody = (name: string) => ({
      name,
      country: 'de',
      timezone: 'Europe/Berlin',
      defaultCurrency: 'EUR',
      mcc: '5411',
      city: 'Berlin',
      postalCode: '10115',
      addressLine1: 'Fuzzstrasse 1',
      metadata: { fuzz: true },
    });
    const store = async (merchant: string, apiKey: string, name: string) =>
      (await api.call<{ externalId: string }>('POST', `/api/merchants/${merchant}/stores`, { key: apiKey, body: storeBody(name) })).externalId;
    const terminal = async (merchant: string, apiKey: string, storeId: string, label: string): Promise<TerminalRef> => {
      const t = await api.call<{ externalId: string }>('POST', `/api/merchants/${merchant}/stores/${storeId}/terminals`, {
        key: apiKey,
        body: { label, terminalType: 'POS', vendor: 'Fuzz', model: 'F1', serialNumber: `SN-${label}-${run}` },
      });
      return { merchantExternalId: merchant, storeExternalId: storeId, terminalExternalId: t.externalId };
    };
    const link = (t: TerminalRef, deviceId: string) => linkTerminal(db, { ...t, deviceId, actorId: 'fuzz' });

    const mainStore = await store(main.externalId, liveKey.key, 'Fuzz Main Store');
    const counter = await terminal(main.externalId, liveKey.key, mainStore, 'counter');
    const kiosk = await terminal(main.externalId, liveKey.key, mainStore, 'kiosk');
    await link(counter, `fuzz-counter-${run}`);
    await link(kiosk, `fuzz-kiosk-${run}`);
    // Victims: a store with a linked terminal of its own, and a spare terminal in the main store.
    const victimStore = await store(main.externalId, liveKey.key, 'Fuzz Victim Store');
    const victimTerminal = await terminal(main.externalId, liveKey.key, victimStore, 'victim');
    await link(victimTerminal, `fuzz-victim-${run}`);
    const spare = await terminal(main.externalId, liveKey.key, mainStore, 'spare');
    const otherStore = await store(other.externalId, otherKey.key, 'Fuzz Other Store');
    const otherTerminal = await terminal(other.externalId, otherKey.key, otherStore, 'other');
    await link(otherTerminal, `fuzz-other-${run}`);

    // Webhook destinations: all at the loopback receiver (WEBHOOK_ALLOW_INSECURE is on for the run).
    const config = async (apiKey: string, description: string) =>
      (await api.call<{ id: string }>('POST', '/api/webhooks/configs', { key: apiKey, body: { url: opts.receiverUrl, description } })).id;
    const mainConfig = await config(liveKey.key, 'fuzz main');
    const victimConfigs = [await config(liveKey.key, 'fuzz victim 1'), await config(liveKey.key, 'fuzz victim 2')];
    const otherConfig = await config(otherKey.key, 'fuzz other');

    // Payments: one left open on the counter, one captured on the kiosk, one open at the other business.
    const pay = async (apiKey: string, t: TerminalRef, reference: string) =>
      api.call<{ id: string; status: string }>('POST', '/api/in-store/payments', {
        key: apiKey,
        body: { ...t, amount: 12.5, currency: 'EUR', reference, terminalTimeoutMinutes: 60 },
      });
    const open = await pay(liveKey.key, counter, `fuzz-open-${run}`);
    const captured = await pay(liveKey.key, kiosk, `fuzz-captured-${run}`);
    await fetch(`${opts.sandboxUrl}/sim/devices/fuzz-kiosk-${run}/customer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'pay', mode: 'CARD', cardBrand: 'VISA', last4: '4242' }),
    }).then((r) => {
      if (r.status !== 200) throw new Error(`fixture: sandbox customer pay answered ${r.status}`);
    });
    await until('the kiosk payment to be captured', async () => {
      const p = await api.call<{ status: string }>('POST', `/api/in-store/payments/${captured.id}/sync-status`, { key: liveKey.key, expect: 200 });
      return p.status === 'CAPTURED' ? p : undefined;
    });
    const otherOpen = await pay(otherKey.key, otherTerminal, `fuzz-other-${run}`);
    for (const p of [open, otherOpen])
      if (p.status !== 'AWAITING_TERMINAL') throw new Error(`fixture: payment ${p.id} is ${p.status}, expected AWAITING_TERMINAL`);

    // Webhook events: the capture's, and a TEST event for each business.
    await api.call('POST', `/api/webhooks/configs/${mainConfig}/test`, { key: liveKey.key, expect: 202 });
    await api.call('POST', `/api/webhooks/configs/${otherConfig}/test`, { key: otherKey.key, expect: 202 });
    const eventsOf = (id: string, apiKey: string) =>
      until(`webhook events of ${id}`, async () => {
        const page = await api.call<{ content: { eventId: string; status: string }[] }>('GET', `/api/webhooks/configs/${id}/events`, { key: apiKey });
        const done = page.content.length > 0 && page.content.every((e) => e.status === 'DELIVERED');
        return done ? page.content.map((e) => e.eventId) : undefined;
      });
    const mainEvents = await eventsOf(mainConfig, liveKey.key);
    const otherEvents = await eventsOf(otherConfig, otherKey.key);

    // Sessions last: logins write, and nothing above may end them.
    const credentials = {
      liveKey: liveKey.key,
      testKey: testKey.key,
      otherKey: otherKey.key,
      adminSession: await login(admin.username),
      viewerSession: await login(viewer.username),
      otherAdminSession: await login(otherAdmin.username),
      logoutSession: await login(admin.username),
    };
    // After the fixture payments, which keep the installation default; later ones follow the routes.
    const acquirerAccounts = await createAcquirerFixtures(
      (method, path, o) => api.call(method, path, o),
      { admin: credentials.adminSession, otherAdmin: credentials.otherAdminSession, testKey: testKey.key },
      { merchantExternalId: main.externalId, liveStores: [mainStore, victimStore] },
    );

    return {
      merchantIds: [main.id, other.id],
      merchants: { main: main.externalId, other: other.externalId },
      credentials,
      users: {
        admin: admin.id,
        viewer: viewer.id,
        victims: victimUsers.map((u) => u.id),
        other: otherAdmin.id,
        victimUsernames: victimUsers.map((u) => u.username),
      },
      apiKeys: { live: liveKey.id, test: testKey.id, victims: victimKeys.map((k) => k.id), other: otherKey.id },
      stores: {
        main: [{ merchantExternalId: main.externalId, storeExternalId: mainStore }],
        victims: [{ merchantExternalId: main.externalId, storeExternalId: victimStore }],
        other: [{ merchantExternalId: other.externalId, storeExternalId: otherStore }],
      },
      terminals: { main: [counter, kiosk], victims: [victimTerminal, spare], other: [otherTerminal] },
      webhookConfigs: { main: mainConfig, victims: victimConfigs, other: otherConfig },
      webhookEvents: { main: mainEvents, other: otherEvents },
      payments: { main: [open.id, captured.id], other: [otherOpen.id], references: [`fuzz-open-${run}`, `fuzz-captured-${run}`] },
      acquirerAccounts,
      receiverUrl: opts.receiverUrl,
    };
  } finally {
    await db.$disconnect();
  }
}
