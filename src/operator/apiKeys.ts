import { audit } from '../audit/audit';
import { generateApiKey, KEY_PREFIXES, type KeyMode } from '../auth/apiKeys';
import { API_KEY_SCOPES } from '../auth/roles';
import type { Db } from '../db/client';
import { invalid } from '../domain/errors';
import { requireText } from './input';
import { findMerchant } from './merchants';

/** The answer to a key creation: the only time the full key is ever shown. */
export interface CreatedApiKey {
  id: string;
  key: string;
  prefix: string;
  mode: KeyMode;
}

export function parseKeyMode(mode: string | undefined): KeyMode {
  const m = (mode ?? 'live').trim().toLowerCase();
  if (!Object.hasOwn(KEY_PREFIXES, m)) throw invalid(`mode: must be 'live' or 'test'`);
  return m as KeyMode;
}

/**
 * Issues an API key for a business with the default key scopes (docs/users-and-keys.md, "API keys"). Only its hash is
 * stored; the creation is written to the audit log in the same transaction.
 */
export async function createApiKey(db: Db, input: { merchantExternalId: string; name: string; mode?: string; actorId?: string }): Promise<CreatedApiKey> {
  const name = requireText('name', input.name, 100);
  const mode = parseKeyMode(input.mode);
  const merchant = await findMerchant(db, input.merchantExternalId);
  const { key, hash, prefix } = generateApiKey(mode);
  const id = await db.$transaction(async (tx) => {
    const created = await tx.apiKey.create({
      data: { merchantId: merchant.id, name, mode, prefix, keyHash: hash, scopes: [...API_KEY_SCOPES] },
    });
    await audit(tx, {
      merchantId: merchant.id,
      actor: { type: 'OPERATOR', id: input.actorId ?? null },
      action: 'API_KEY_CREATED',
      target: { type: 'API_KEY', id: created.id },
      details: { name, mode, prefix },
    });
    return created.id;
  });
  return { id, key, prefix, mode };
}
