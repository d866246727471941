import { LRUCache } from 'lru-cache';
import type { Db } from './client';

/**
 * A business's external id by its id, remembered per process: the pair never changes (nothing
 * updates a Merchant row's externalId), so after the first read an event for its payments needs no
 * read of the business at all. Bounded: the least recently used goes first.
 */
const known = new LRUCache<string, string>({ max: 10_000 });

export async function merchantExternalIdOf(db: Pick<Db, 'merchant'>, merchantId: string): Promise<string> {
  const hit = known.get(merchantId);
  if (hit !== undefined) return hit;
  const { externalId } = await db.merchant.findUniqueOrThrow({ where: { id: merchantId }, select: { externalId: true } });
  known.set(merchantId, externalId);
  return externalId;
}
