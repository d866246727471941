import type { Db } from './client';

/**
 * A business's external id by its id, remembered per process: the pair never changes (nothing
 * updates a Merchant row's externalId), so after the first read an event for its payments needs no
 * read of the business at all. Bounded: the oldest goes first.
 */
const LIMIT = 10_000;
const known = new Map<string, string>();

export async function merchantExternalIdOf(db: Db, merchantId: string): Promise<string> {
  const hit = known.get(merchantId);
  if (hit !== undefined) return hit;
  const { externalId } = await db.merchant.findUniqueOrThrow({ where: { id: merchantId }, select: { externalId: true } });
  if (known.size >= LIMIT) known.delete(known.keys().next().value!);
  known.set(merchantId, externalId);
  return externalId;
}
