import type { Merchant } from '../../src/generated/prisma/client';
import { call } from '../support/http';
import type { TestStack } from '../support/stack';
import { createPayment, openShop, type Shop, sim, statusBecomes } from '../payments/helpers';
import { signedInUser } from '../users/helpers';

/** A shop with its business and a signed-in FINANCE user's session token, to refund from the dashboard. */
export interface Till {
  shop: Shop;
  merchant: Merchant;
  finance: string;
}

export async function till(stack: TestStack, device: Record<string, unknown> = {}): Promise<Till> {
  const shop = await openShop(stack, { device });
  const merchant = await stack.db.merchant.findUniqueOrThrow({ where: { id: shop.merchantId } });
  const { token } = await signedInUser(stack.db, stack.apiUrl, merchant, ['FINANCE']);
  return { shop, merchant, finance: token };
}

/** A payment of `amount` on the till's device, paid by the customer and CAPTURED; its id. */
export async function captured(stack: TestStack, t: Till, amount = 30): Promise<string> {
  const created = await createPayment(stack, t.shop, { amount });
  await sim(stack).customer(t.shop.deviceId, { action: 'pay' });
  await statusBecomes(stack, created.body.id, 'CAPTURED');
  return created.body.id as string;
}

/** The FINANCE user refunds `amount` of the payment. */
export const refundAs = (stack: TestStack, t: Till, paymentId: string, amount: number) =>
  call(stack.apiUrl, 'POST', `/api/dashboard/payments/${paymentId}/refunds`, { token: t.finance, body: { amount } });
