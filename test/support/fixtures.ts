import crypto from 'node:crypto';
import { generateApiKey, type KeyMode } from '../../src/auth/apiKeys';
import { API_KEY_SCOPES } from '../../src/auth/roles';
import type { Db } from '../../src/db/client';

export const uniqueId = (prefix: string): string => `${prefix}-${crypto.randomBytes(5).toString('hex')}`;

/** A fresh business with one API key, written straight to the database. */
export async function createMerchantWithKey(db: Db, opts: { mode?: KeyMode; scopes?: string[] } = {}) {
  const merchant = await db.merchant.create({ data: { externalId: uniqueId('m'), name: 'Test Merchant' } });
  const { key, hash, prefix } = generateApiKey(opts.mode ?? 'live');
  const apiKey = await db.apiKey.create({
    data: { merchantId: merchant.id, name: 'test', mode: opts.mode ?? 'live', prefix, keyHash: hash, scopes: opts.scopes ?? [...API_KEY_SCOPES] },
  });
  return { merchant, key, apiKey };
}

export type MerchantWithKey = Awaited<ReturnType<typeof createMerchantWithKey>>;
