import crypto from 'node:crypto';
import type { Merchant } from '../../src/generated/prisma/client';
import { createMerchantWithKey, uniqueId } from '../support/fixtures';
import { call } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { createMerchant, signedInUser } from '../users/helpers';

/**
 * The dashboard's session-token API (docs/dashboard.md, "The dashboard API") and how the API process serves the app: role
 * table on every call, both modes for a user, nothing of another business, API keys refused.
 */
let stack: TestStack;
let merchant: Merchant;
let other: Merchant;
let tokens: Record<'ADMIN' | 'USER' | 'FINANCE', string>;
const storeA = uniqueId('store-a');
const storeB = uniqueId('store-b');

async function payment(m: Merchant, data: { mode: string; status: string; amount: string; store?: string; reference?: string; createdAt?: Date }) {
  const id = crypto.randomUUID();
  return stack.db.payment.create({
    data: {
      id,
      merchantId: m.id,
      storeExternalId: data.store ?? storeA,
      terminalExternalId: 'till-1',
      mode: data.mode,
      pspReference: uniqueId('psp'),
      status: data.status,
      amount: data.amount,
      currency: 'EUR',
      reference: data.reference ?? null,
      acquirerName: 'sandbox',
      terminalTimeoutMinutes: '5',
      workflowId: `payment-${id}`,
      expiresAt: new Date(Date.now() + 600_000),
      ...(data.createdAt ? { createdAt: data.createdAt } : {}),
    },
  });
}

beforeAll(async () => {
  stack = await startTestStack();
  merchant = await createMerchant(stack.db, 'Dashboard Test Merchant');
  other = await createMerchant(stack.db, 'Another Business');
  tokens = {
    ADMIN: (await signedInUser(stack.db, stack.apiUrl, merchant, ['ADMIN'])).token,
    USER: (await signedInUser(stack.db, stack.apiUrl, merchant, ['USER'])).token,
    FINANCE: (await signedInUser(stack.db, stack.apiUrl, merchant, ['FINANCE'])).token,
  };
});

afterAll(async () => {
  await stack?.stop();
});

describe('GET /api/dashboard/payments', () => {
  let live: { id: string; pspReference: string };
  let test: { id: string };
  let foreign: { id: string };

  beforeAll(async () => {
    live = await payment(merchant, { mode: 'live', status: 'CAPTURED', amount: '12.50', reference: 'bill-live' });
    test = await payment(merchant, { mode: 'test', status: 'REFUSED', amount: '3.00', store: storeB });
    foreign = await payment(other, { mode: 'live', status: 'CAPTURED', amount: '99.00' });
  });

  it('lists live and test payments of the business alike, never another business', async () => {
    const res = await call(stack.apiUrl, 'GET', '/api/dashboard/payments?size=100', { token: tokens.USER });
    expect(res.status).toBe(200);
    const ids = res.body.content.map((p: { id: string }) => p.id);
    expect(ids).toEqual(expect.arrayContaining([live.id, test.id]));
    expect(ids).not.toContain(foreign.id);
    const shown = res.body.content.find((p: { id: string }) => p.id === live.id);
    expect(shown).toMatchObject({ pspReference: live.pspReference, status: 'CAPTURED', amount: 12.5, mode: 'live', storeExternalId: storeA });
  });

  it('narrows by mode, status, store and q', async () => {
    const byMode = await call(stack.apiUrl, 'GET', '/api/dashboard/payments?mode=test', { token: tokens.USER });
    expect(byMode.body.content.map((p: { id: string }) => p.id)).toEqual([test.id]);
    const byStatus = await call(stack.apiUrl, 'GET', '/api/dashboard/payments?status=CAPTURED', { token: tokens.USER });
    expect(byStatus.body.content.map((p: { id: string }) => p.id)).toEqual([live.id]);
    const byStore = await call(stack.apiUrl, 'GET', `/api/dashboard/payments?storeExternalId=${storeB}`, { token: tokens.USER });
    expect(byStore.body.totalElements).toBe(1);
    const byQ = await call(stack.apiUrl, 'GET', '/api/dashboard/payments?q=bill-live', { token: tokens.USER });
    expect(byQ.body.content.map((p: { id: string }) => p.id)).toEqual([live.id]);
  });

  it('refuses bad filters with the field named, an API key with 401', async () => {
    const bad = await call(stack.apiUrl, 'GET', '/api/dashboard/payments?mode=sandbox', { token: tokens.USER });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('mode');
    const { key } = await createMerchantWithKey(stack.db);
    expect((await call(stack.apiUrl, 'GET', '/api/dashboard/payments', { key })).status).toBe(401);
    expect((await call(stack.apiUrl, 'GET', '/api/dashboard/payments', { headers: { Authorization: `Bearer ${key}` } })).status).toBe(401);
    // ...and the API-key endpoints keep answering only API keys.
    expect((await call(stack.apiUrl, 'GET', '/api/transactions', { token: tokens.ADMIN })).status).toBe(401);
  });

  it('one payment: history for every role, webhook deliveries only for the webhooks area, 404 across businesses', async () => {
    const asUser = await call(stack.apiUrl, 'GET', `/api/dashboard/payments/${live.id}`, { token: tokens.USER });
    expect(asUser.status).toBe(200);
    expect(asUser.body).toMatchObject({ id: live.id, mode: 'live', history: [], webhookEvents: null });
    const asAdmin = await call(stack.apiUrl, 'GET', `/api/dashboard/payments/${live.id}`, { token: tokens.ADMIN });
    expect(asAdmin.body.webhookEvents).toEqual([]);
    expect((await call(stack.apiUrl, 'GET', `/api/dashboard/payments/${foreign.id}`, { token: tokens.ADMIN })).status).toBe(404);
  });

  it("summary: today's figures per store and payments per hour by status", async () => {
    const res = await call(stack.apiUrl, 'GET', '/api/dashboard/summary', { token: tokens.FINANCE });
    expect(res.status).toBe(200);
    expect(res.body.stores).toEqual(
      expect.arrayContaining([
        { storeExternalId: storeA, currency: 'EUR', payments: 1, captured: 1, capturedAmount: 12.5, refused: 0, open: 0 },
        { storeExternalId: storeB, currency: 'EUR', payments: 1, captured: 0, capturedAmount: 0, refused: 1, open: 0 },
      ]),
    );
    const counted = res.body.hours.filter((h: { status: string }) => h.status === 'CAPTURED').reduce((n: number, h: { count: number }) => n + h.count, 0);
    expect(counted).toBe(1);
    const testOnly = await call(stack.apiUrl, 'GET', '/api/dashboard/summary?mode=test', { token: tokens.FINANCE });
    expect(testOnly.body.stores.map((s: { storeExternalId: string }) => s.storeExternalId)).toEqual([storeB]);
  });
});

describe('GET /api/dashboard/me', () => {
  it('names the areas of the role table the user reaches', async () => {
    const user = await call(stack.apiUrl, 'GET', '/api/dashboard/me', { token: tokens.USER });
    expect(user.status).toBe(200);
    expect(user.body.areas.sort()).toEqual(['ownAccount', 'ownProfile', 'sharedViews']);
    const finance = await call(stack.apiUrl, 'GET', '/api/dashboard/me', { token: tokens.FINANCE });
    expect(finance.body.areas).toContain('finance');
    expect(finance.body.areas).not.toContain('users');
    expect(finance.body.disputeReminderHours).toBe(48); // the default: the dashboard marks disputes due within it
  });
});

describe('the app at /dashboard', () => {
  it('answers every address under /dashboard with the app, under a strict content security policy', async () => {
    for (const path of ['/dashboard', '/dashboard/', `/dashboard/payments/${crypto.randomUUID()}`, '/dashboard/sign-in']) {
      const res = await fetch(stack.apiUrl + path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      const html = await res.text();
      expect(html).toMatch(/<script type="module" crossorigin src="\/dashboard\/assets\/[\w.-]+\.js"><\/script>/);
      expect(html).not.toMatch(/<script>(?!<\/script>)/); // no inline script
    }
  });

  it('serves its hashed assets, and nothing outside them', async () => {
    const html = await (await fetch(`${stack.apiUrl}/dashboard/`)).text();
    const script = /src="(\/dashboard\/assets\/[\w.-]+\.js)"/.exec(html)![1]!;
    const js = await fetch(stack.apiUrl + script);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toContain('javascript');
    expect(js.headers.get('cache-control')).toContain('immutable');
    for (const path of ['/dashboard/assets/missing.js', '/dashboard/assets/..%2F..%2Fpackage.json', '/dashboard/assets/.env']) {
      expect((await fetch(stack.apiUrl + path)).status).toBe(404);
    }
    expect((await fetch(`${stack.apiUrl}/dashboard/payments`, { method: 'POST' })).status).toBe(405);
  });
});
