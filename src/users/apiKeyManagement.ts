import { audit } from '../audit/audit';
import { generateApiKey, type KeyMode } from '../auth/apiKeys';
import { API_KEY_SCOPES } from '../auth/roles';
import type { Db } from '../db/client';
import type { ApiKey } from '../generated/prisma/client';
import { conflict, notFound } from '../domain/errors';
import { z } from '../domain/zod';
import type { Caller } from './management';

/**
 * API key management (docs/users-and-keys.md, "API keys") for a signed-in administrator: issue (the key is shown once),
 * list without secrets, rotate with a grace period, revoke at once. Only the SHA-256 of a key is
 * stored. A key of another merchant is 404.
 */
export const API_KEY_STATUSES = ['ACTIVE', 'ROTATED', 'REVOKED'] as const;
export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];

export const ApiKeyRecord = z
  .object({
    id: z.string(),
    name: z.string(),
    mode: z.enum(['live', 'test']),
    prefix: z.string().openapi({ description: 'The first characters of the key, to recognise it', example: 'isp_live_aB3x' }),
    scopes: z.array(z.string()).openapi({ example: [...API_KEY_SCOPES] }),
    status: z.enum(API_KEY_STATUSES).openapi({ description: 'ROTATED: replaced; works until expiresAt' }),
    expiresAt: z.string().nullable().openapi({ description: 'Set on rotation: the end of the grace period' }),
    revokedAt: z.string().nullable(),
    replacedById: z.string().nullable(),
    lastUsedAt: z.string().nullable().openapi({ description: 'Recorded to the minute' }),
    createdAt: z.string(),
  })
  .openapi('ApiKey');
export type ApiKeyRecord = z.infer<typeof ApiKeyRecord>;

export const IssuedApiKey = ApiKeyRecord.extend({
  key: z.string().openapi({ description: 'The full key. Shown this once; only its hash is stored', example: 'isp_live_aB3x...' }),
}).openapi('IssuedApiKey');
export type IssuedApiKey = z.infer<typeof IssuedApiKey>;

export function apiKeyStatus(k: Pick<ApiKey, 'revokedAt' | 'replacedById'>): ApiKeyStatus {
  if (k.revokedAt) return 'REVOKED';
  if (k.replacedById) return 'ROTATED';
  return 'ACTIVE';
}

export function toApiKeyRecord(k: ApiKey): ApiKeyRecord {
  return {
    id: k.id,
    name: k.name,
    mode: k.mode === 'test' ? 'test' : 'live',
    prefix: k.prefix,
    scopes: k.scopes,
    status: apiKeyStatus(k),
    expiresAt: k.expiresAt?.toISOString() ?? null,
    revokedAt: k.revokedAt?.toISOString() ?? null,
    replacedById: k.replacedById,
    lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
    createdAt: k.createdAt.toISOString(),
  };
}

const actorOf = (caller: Caller) => ({ type: 'USER' as const, id: caller.principal.userId });

export async function issueApiKey(db: Db, caller: Caller, input: { name: string; mode: KeyMode; scopes?: string[] }): Promise<IssuedApiKey> {
  const scopes = input.scopes && input.scopes.length > 0 ? [...new Set(input.scopes)] : [...API_KEY_SCOPES];
  const { key, hash, prefix } = generateApiKey(input.mode);
  const record = await db.$transaction(async (tx) => {
    const created = await tx.apiKey.create({
      data: { merchantId: caller.principal.merchantId, name: input.name, mode: input.mode, prefix, keyHash: hash, scopes },
    });
    await audit(tx, {
      merchantId: caller.principal.merchantId,
      actor: actorOf(caller),
      action: 'API_KEY_CREATED',
      target: { type: 'API_KEY', id: created.id },
      details: { name: created.name, mode: created.mode, prefix, scopes },
      requestId: caller.requestId,
    });
    return created;
  });
  return { ...toApiKeyRecord(record), key };
}

export async function listApiKeys(db: Db, caller: Caller): Promise<ApiKeyRecord[]> {
  const keys = await db.apiKey.findMany({ where: { merchantId: caller.principal.merchantId }, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }] });
  return keys.map(toApiKeyRecord);
}

async function findKey(db: Db, caller: Caller, id: string): Promise<ApiKey> {
  const key = await db.apiKey.findFirst({ where: { id, merchantId: caller.principal.merchantId } });
  if (!key) throw notFound(`API key ${id}`);
  return key;
}

/**
 * Issues the replacement (same name, mode and scopes) and gives the old key `graceHours` more
 * to live. Only an ACTIVE key rotates; rotating a rotated or revoked key is 409.
 */
export async function rotateApiKey(db: Db, caller: Caller, id: string, graceHours: number): Promise<IssuedApiKey & { previousKey: ApiKeyRecord }> {
  const old = await findKey(db, caller, id);
  const status = apiKeyStatus(old);
  if (status !== 'ACTIVE') throw conflict(`API key ${id} is ${status}; only an ACTIVE key can be rotated`);
  const { key, hash, prefix } = generateApiKey(old.mode === 'test' ? 'test' : 'live');
  const now = new Date();
  const graceEnd = new Date(now.getTime() + graceHours * 3_600_000);
  const result = await db.$transaction(async (tx) => {
    const created = await tx.apiKey.create({ data: { merchantId: old.merchantId, name: old.name, mode: old.mode, prefix, keyHash: hash, scopes: old.scopes } });
    // Claims the old key: of two racing rotations only one replaces it. A grace end never extends an earlier expiry.
    const expiresAt = old.expiresAt && old.expiresAt < graceEnd ? old.expiresAt : graceEnd;
    const claimed = await tx.apiKey.updateMany({ where: { id: old.id, revokedAt: null, replacedById: null }, data: { replacedById: created.id, expiresAt } });
    if (claimed.count === 0) throw conflict(`API key ${id} was rotated or revoked meanwhile`);
    await audit(tx, {
      merchantId: old.merchantId,
      actor: actorOf(caller),
      action: 'API_KEY_ROTATED',
      target: { type: 'API_KEY', id: old.id },
      details: { replacedById: created.id, prefix: old.prefix, newPrefix: prefix, graceEndsAt: expiresAt.toISOString() },
      requestId: caller.requestId,
    });
    const previous = await tx.apiKey.findUniqueOrThrow({ where: { id: old.id } });
    return { created, previous };
  });
  return { ...toApiKeyRecord(result.created), key, previousKey: toApiKeyRecord(result.previous) };
}

/** Revokes at once, whatever the key's state (also a rotated key still in its grace period). Revoking twice changes nothing. */
export async function revokeApiKey(db: Db, caller: Caller, id: string): Promise<void> {
  const key = await findKey(db, caller, id);
  if (key.revokedAt) return;
  await db.$transaction(async (tx) => {
    const revoked = await tx.apiKey.updateMany({ where: { id: key.id, revokedAt: null }, data: { revokedAt: new Date() } });
    if (revoked.count === 0) return;
    await audit(tx, {
      merchantId: key.merchantId,
      actor: actorOf(caller),
      action: 'API_KEY_REVOKED',
      target: { type: 'API_KEY', id: key.id },
      details: { name: key.name, prefix: key.prefix, statusBefore: apiKeyStatus(key) },
      requestId: caller.requestId,
    });
  });
}
