import type { Db } from '../db/client';
import { Prisma } from '../generated/prisma/client';
import { conflict, notFound } from '../domain/errors';
import { OPEN_STATUSES } from '../../core/payment/statuses';

/**
 * The delete guard (docs/stores-and-terminals.md, "Decisions"): an unforced delete of a store or terminal that took payments in
 * the last DELETE_GUARD_HOURS is refused with 409, and so is one whose recent activity cannot be
 * determined (the check failed): refusing is the safe answer when we do not know.
 */

type PaymentReader = { payment: { findFirst(args: { where: Prisma.PaymentWhereInput; select: { id: true } }): Promise<{ id: string } | null> } };

/**
 * True when a payment of `place` was created or captured inside the window, or is still open
 * (payments still on the device count as activity however old they are).
 * `place` selects the payments of one store or terminal by its foreign key (storeId or
 * terminalId), which every payment carries and which the (storeId|terminalId, createdAt) indexes
 * serve; the external-id text columns have no index and are not consulted.
 */
export async function tookRecentPayments(db: PaymentReader, place: Prisma.PaymentWhereInput, hours: number, now = new Date()): Promise<boolean> {
  const since = new Date(now.getTime() - hours * 3600_000);
  const hit = await db.payment.findFirst({
    where: { AND: [place, { OR: [{ createdAt: { gte: since } }, { capturedAt: { gte: since } }, { status: { in: [...OPEN_STATUSES] } }] }] },
    select: { id: true },
  });
  return hit !== null;
}

/** Throws 409 unless the delete may go ahead: forced, or the check answered "no recent payments". */
export async function enforceDeleteGuard(what: 'store' | 'terminal', force: boolean, hours: number, check: () => Promise<boolean>): Promise<void> {
  if (force) return;
  let recent: boolean;
  try {
    recent = await check();
  } catch {
    throw conflict(`${what} not deleted: its recent payment activity could not be determined; retry later, or add force=true to delete it anyway`);
  }
  if (recent) throw conflict(`${what} took payments in the last ${hours} hours; add force=true to delete it anyway`);
}

/** How each place is locked, deleted and found among the payments. */
const PLACES = {
  store: { table: Prisma.raw('"Store"'), paymentKey: 'storeId' },
  terminal: { table: Prisma.raw('"Terminal"'), paymentKey: 'terminalId' },
} as const;

/**
 * Deletes a store (its terminals and their device links go by cascade) or a terminal, under the
 * guard, in one transaction. The row lock orders the delete against payment inserts, which
 * key-share-lock the store and the terminal: a payment is either counted by the guard or refused.
 */
export async function deleteGuarded(db: Db, what: keyof typeof PLACES, id: string, opts: { force: boolean; hours: number }): Promise<void> {
  const { table, paymentKey } = PLACES[what];
  await db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM ${table} WHERE "id" = ${id} FOR UPDATE`;
    if (locked.length === 0) throw notFound(what);
    await enforceDeleteGuard(what, opts.force, opts.hours, () => tookRecentPayments(tx, { [paymentKey]: id }, opts.hours));
    await tx.$executeRaw`DELETE FROM ${table} WHERE "id" = ${id}`;
  });
}
