import fs from 'node:fs';
import { createClient, createPayment, type Client } from '@in-store-payments/client';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';

/** The seeded business (e2e/seed.ts) and the service's addresses. */
export interface E2EState {
  merchantExternalId: string;
  merchantName: string;
  password: string;
  users: Record<'ADMIN' | 'FINANCE' | 'OPERATIONS' | 'COMPLIANCE' | 'USER', string>;
  mfaUser: string;
  key: string;
  storeExternalId: string;
  terminalExternalId: string;
  deviceId: string;
  apiUrl: string;
  sandboxUrl: string;
  /** A loopback webhook receiver that answers 204. */
  receiverUrl: string;
  /** The service's DATA_DIR and database, for the operator's command line (terminal:link). */
  dataDir: string;
  databaseUrl: string;
}

export const state = (): E2EState => JSON.parse(fs.readFileSync(process.env.E2E_STATE!, 'utf8')) as E2EState;

/** The page's console, watched for the whole test. */
export interface ConsoleWatch {
  /** A refusal the test provokes and the page explains (a 401 on a wrong password, a 409 shown as it is): its status is no error. */
  allowRefusal(status: 400 | 401 | 403 | 404 | 409): void;
}

/**
 * Every test fails on a script error in the page or on any console error (a fixture-level
 * listener): a CSP violation, an exception in React, a failed chunk load, a request answered 404
 * (a missing icon). A refused request is allowed only where the test says it provokes one.
 */
export const test = base.extend<{ pageErrors: ConsoleWatch }>({
  // The service's address is known only once the global set-up has started it.
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern
  baseURL: async ({}, use) => {
    await use(process.env.E2E_BASE_URL);
  },
  pageErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      const allowed = new Set<number>();
      page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
      page.on('console', (msg) => {
        if (msg.type() !== 'error') return;
        const status = /^Failed to load resource: the server responded with a status of (\d+)/.exec(msg.text())?.[1];
        if (status && allowed.has(Number(status))) return;
        errors.push(`console: ${msg.text()} (${msg.location().url})`);
      });
      await use({ allowRefusal: (status) => allowed.add(status) });
      expect(errors, 'errors in the page').toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/dashboard/sign-in');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
}

/** The API as a point-of-sale system calls it: the client with the seeded test API key. */
export const posClient = (s: E2EState): Client => createClient({ baseUrl: s.apiUrl, apiKey: s.key });

/** The API as the dashboard calls it: the client with a signed-in user's session token. */
export const sessionClient = (s: E2EState, sessionToken: string): Client => createClient({ baseUrl: s.apiUrl, sessionToken });

/** The session token the signed-in page holds. */
export const pageSessionToken = (page: Page): Promise<string> =>
  page.evaluate(() => Object.values((globalThis as any).sessionStorage as Record<string, string>)[0]);

/** JSON over HTTP to what is not the API (the sandbox's simulator, the served document). */
export async function callJson(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(url, {
    method,
    headers: { ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** A payment taken at the till (`cashierId`: who took it): created through the API, for the customer to pay on the sandbox device. */
export async function takePayment(s: E2EState, amount: number, reference: string, cashierId?: string): Promise<{ id: string; pspReference: string }> {
  const created = await createPayment({
    client: posClient(s),
    body: {
      merchantExternalId: s.merchantExternalId,
      storeExternalId: s.storeExternalId,
      terminalExternalId: s.terminalExternalId,
      amount,
      currency: 'EUR',
      reference,
      ...(cashierId ? { cashierId } : {}),
    },
  });
  expect(created.response.status, JSON.stringify(created.data)).toBe(201);
  expect(created.data.status).toBe('AWAITING_TERMINAL');
  return { id: created.data.id, pspReference: created.data.pspReference };
}

/**
 * The customer pays on the sandbox device (the seeded one unless `deviceId` names another); `approvedAmount`: the card
 * approves only that much (a partial approval); `tipAmount`: the tip chosen on the device when the payment asked for one.
 */
export async function customerPays(s: E2EState, opts: { approvedAmount?: number; tipAmount?: number; deviceId?: string } = {}): Promise<void> {
  const { deviceId = s.deviceId, ...choice } = opts;
  const paid = await callJson('POST', `${s.sandboxUrl}/sim/devices/${encodeURIComponent(deviceId)}/customer`, {
    action: 'pay',
    mode: 'CARD',
    cardBrand: 'VISA',
    last4: '4242',
    ...choice,
  });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
}

/** The sandbox's device settings (docs/acquirers.md, "The sandbox acquirer"): e.g. how long the scheme takes to decide a submitted dispute. */
export async function configureDevice(s: E2EState, settings: Record<string, unknown>): Promise<void> {
  const res = await callJson('PUT', `${s.sandboxUrl}/sim/devices/${encodeURIComponent(s.deviceId)}`, settings);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/**
 * The cardholder's bank disputes a captured payment: the sandbox opens it and notifies the service
 * (docs/disputes.md, "The sandbox"). Asked again while the sandbox has not yet seen the capture (409).
 */
export async function openDispute(
  s: E2EState,
  pspReference: string,
  body: { reason?: string; amount?: number; respondWithinHours?: number } = {},
): Promise<void> {
  const url = `${s.sandboxUrl}/sim/payments/${encodeURIComponent(pspReference)}/disputes`;
  await expect
    .poll(async () => {
      const res = await callJson('POST', url, body);
      return res.status === 409 ? 409 : `${res.status} ${JSON.stringify(res.body)}`;
    })
    .toMatch(/^201 /);
}

/** Screenshots for docs/dashboard.md, written when E2E_SCREENSHOTS names a folder. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

/** Whether the running service documents an operation: journeys of endpoints other issues deliver wait for them. */
export async function serviceHas(s: E2EState, method: string, path: string): Promise<boolean> {
  const doc = (await callJson('GET', `${s.apiUrl}/openapi.json`)).body as { paths: Record<string, Record<string, unknown>> };
  return Boolean(doc.paths[path]?.[method]);
}

/** The page as it stands passes axe-core's WCAG 2.0 and 2.1 A and AA rules (issue 31). */
export async function expectAccessible(page: Page): Promise<void> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const found = result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(found, `accessibility of ${page.url()}`).toEqual([]);
}
