import crypto from 'node:crypto';
import type { Db } from '../../src/db/client';
import { type createMerchantWithKey, uniqueId } from '../support/fixtures';

export type Merchant = Awaited<ReturnType<typeof createMerchantWithKey>>;

/** Where a payment row was taken: a store (its row may be gone) and, when known, a terminal. */
export interface PaymentPlace {
  storeId: string | null;
  storeExternalId: string;
  terminalId?: string | null;
  terminalExternalId?: string;
}

/** A payment row as the payments side writes it, at a store (and terminal), created `hoursAgo`; CAPTURED unless told. */
export async function insertPayment(db: Db, m: Merchant, at: PaymentPlace, opts: { hoursAgo?: number; status?: string; amount?: string } = {}) {
  const createdAt = new Date(Date.now() - (opts.hoursAgo ?? 0) * 3600_000);
  const id = crypto.randomUUID();
  return db.payment.create({
    data: {
      id,
      merchantId: m.merchant.id,
      storeId: at.storeId,
      terminalId: at.terminalId ?? null,
      storeExternalId: at.storeExternalId,
      terminalExternalId: at.terminalExternalId ?? uniqueId('term'),
      mode: 'live',
      pspReference: uniqueId('psp'),
      status: opts.status ?? 'CAPTURED',
      amount: opts.amount ?? '12.50',
      currency: 'EUR',
      acquirerName: 'sandbox',
      terminalTimeoutMinutes: '5',
      workflowId: `payment-${id}`,
      expiresAt: new Date(createdAt.getTime() + 6 * 60_000),
      createdAt,
      capturedAt: opts.status && opts.status !== 'CAPTURED' ? null : createdAt,
    },
  });
}
