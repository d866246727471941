import type { Merchant } from '../../src/generated/prisma/client';
import { call, type HttpResult } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { signedInUser } from '../users/helpers';
import { openShop, type Shop } from '../payments/helpers';

/** An ADMIN's session calls on the acquirer accounts and routes endpoints (docs/acquirers.md). */
export async function adminOf(stack: TestStack, merchant: Merchant) {
  const { token } = await signedInUser(stack.db, stack.apiUrl, merchant, ['ADMIN']);
  const at = (method: string, path: string, body?: unknown): Promise<HttpResult> => call(stack.apiUrl, method, path, { token, body });
  return {
    token,
    createAccount: (body: Record<string, unknown>) => at('POST', '/api/dashboard/acquirer-accounts', body),
    listAccounts: () => at('GET', '/api/dashboard/acquirer-accounts'),
    getAccount: (id: string) => at('GET', `/api/dashboard/acquirer-accounts/${id}`),
    updateAccount: (id: string, body: Record<string, unknown>) => at('PUT', `/api/dashboard/acquirer-accounts/${id}`, body),
    deleteAccount: (id: string) => at('DELETE', `/api/dashboard/acquirer-accounts/${id}`),
    routes: (mode: string) => at('GET', `/api/dashboard/acquirer-routes?mode=${mode}`),
    saveRoutes: (body: Record<string, unknown>) => at('PUT', '/api/dashboard/acquirer-routes', body),
  };
}
export type Admin = Awaited<ReturnType<typeof adminOf>>;

/** A test-mode business with a store and terminal, its ADMIN's calls and a FINANCE user's session: the back office's tests start here. */
export async function backOffice(stack: TestStack): Promise<{ shop: Shop; admin: Admin; finance: string }> {
  const shop = await openShop(stack, { mode: 'test' });
  const merchant = await stack.db.merchant.findUniqueOrThrow({ where: { id: shop.merchantId } });
  const { token: finance } = await signedInUser(stack.db, stack.apiUrl, merchant, ['FINANCE']);
  return { shop, admin: await adminOf(stack, merchant), finance };
}

/** For a test file: a test stack and a business's back office made before its tests (`use` receives them), the stack stopped after. */
export function withBackOffice(use: (started: { stack: TestStack; shop: Shop; admin: Admin; finance: string }) => void): void {
  let stack: TestStack | undefined;
  beforeAll(async () => {
    stack = await startTestStack();
    use({ stack, ...(await backOffice(stack)) });
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
  });
}

/** A sandbox account of `mode` with this MID; its id. */
export async function sandboxAccount(admin: Admin, mode: 'live' | 'test', merchantAccountId: string, name = merchantAccountId): Promise<string> {
  const res = await admin.createAccount({ name, acquirer: 'sandbox', mode, merchantAccountId, credentials: {} });
  if (res.status !== 201) throw new Error(`account not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

export const STRIPE_TEST = { apiKey: 'sk_test_51AbCdEfGhIjKlMnOpQrStUvWx', webhookSecret: 'whsec_testSecretForAccount1234' };
export const STRIPE_LIVE = { apiKey: 'sk_live_51ZyXwVuTsRqPoNmLkJiHgFeDc', webhookSecret: 'whsec_liveSecretForAccount5678' };
