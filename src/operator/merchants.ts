import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/client';
import type { Merchant } from '../generated/prisma/client';
import { conflict, notFound } from '../domain/errors';
import { requireIdentifier, requireText } from './input';

/** A business as the operator sees it. */
export interface MerchantView {
  id: string;
  externalId: string;
  name: string;
  createdAt: string;
}

export function merchantView(m: Merchant): MerchantView {
  return { id: m.id, externalId: m.externalId, name: m.name, createdAt: m.createdAt.toISOString() };
}

/** Registers a business. The external id is the business identifier of every API path, so it is URL-safe. */
export async function createMerchant(db: Db, input: { externalId: string; name: string }): Promise<MerchantView> {
  const externalId = requireIdentifier('external-id', input.externalId);
  const name = requireText('name', input.name, 200);
  try {
    return merchantView(await db.merchant.create({ data: { externalId, name } }));
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`merchant '${externalId}' already exists`);
    throw err;
  }
}

export async function findMerchant(db: Db, externalId: string): Promise<Merchant> {
  const merchant = await db.merchant.findUnique({ where: { externalId: externalId.trim() } });
  if (!merchant) throw notFound(`merchant '${externalId}'`);
  return merchant;
}
