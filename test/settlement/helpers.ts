import type { Role } from '../../src/auth/roles';
import { call } from '../support/http';
import type { TestStack } from '../support/stack';
import { createPayment, type Shop, sim, statusBecomes } from '../payments/helpers';
import { signedInUser } from '../users/helpers';

/** Shared by the settlement tests: captured payments, signed-in users of the shop's business, the close call. */
export async function capturedPayment(stack: TestStack, shop: Shop, amount: number, mode: 'CARD' | 'QR_CODE' = 'CARD') {
  const created = await createPayment(stack, shop, { amount });
  if (created.status !== 201) throw new Error(`create failed: ${created.status} ${JSON.stringify(created.body)}`);
  const paid = await sim(stack).customer(shop.deviceId, { action: 'pay', mode });
  if (paid.status !== 200) throw new Error(`pay failed: ${paid.status} ${JSON.stringify(paid.body)}`);
  return statusBecomes(stack, created.body.id as string, 'CAPTURED');
}

export async function userOf(stack: TestStack, shop: Shop, roles: Role[]): Promise<string> {
  const merchant = await stack.db.merchant.findUniqueOrThrow({ where: { id: shop.merchantId } });
  return (await signedInUser(stack.db, stack.apiUrl, merchant, roles)).token;
}

export const closeBatch = (stack: TestStack, token: string, storeExternalId: string) =>
  call(stack.apiUrl, 'POST', '/api/dashboard/settlements', { token, body: { storeExternalId } });

export const settlementsApi = (stack: TestStack, token: string) => ({
  list: (query = '') => call(stack.apiUrl, 'GET', `/api/dashboard/settlements${query}`, { token }),
  read: (id: string) => call(stack.apiUrl, 'GET', `/api/dashboard/settlements/${id}`, { token }),
  lines: (id: string, query = '') => call(stack.apiUrl, 'GET', `/api/dashboard/settlements/${id}/lines${query}`, { token }),
  csv: (id: string) => call(stack.apiUrl, 'GET', `/api/dashboard/settlements/${id}/lines.csv`, { token }),
});
