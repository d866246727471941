import { auditFor, type AuditSource } from '../audit/audit';
import type { Db } from '../db/client';
import { invalid } from '../domain/errors';
import { Prisma, type AcquirerRoutes } from '../generated/prisma/client';
import type { Routes } from './decision';
import type { RoutesBody, RoutesRecord } from './schemas';

/**
 * A business's acquirer routes of one mode (docs/acquirers.md, "Routes and the decision"): an ordered rule list and a default,
 * replaced whole, validated against the business's accounts and stores, versioned and audited.
 */
type Tx = Pick<Db, 'acquirerRoutes' | 'acquirerAccount' | 'store' | 'auditLog' | '$queryRaw'>;

export function toRoutesRecord(mode: 'live' | 'test', row: AcquirerRoutes | null): RoutesRecord {
  if (!row) return { mode, rules: [], defaultAccountId: null, version: 0, updatedAt: null, updatedBy: null };
  return {
    mode,
    rules: row.rules as RoutesRecord['rules'],
    defaultAccountId: row.defaultAccountId,
    version: row.version,
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: row.updatedBy,
  };
}

export function readRoutes(db: Pick<Db, 'acquirerRoutes'>, merchantId: string, mode: string): Promise<AcquirerRoutes | null> {
  return db.acquirerRoutes.findUnique({ where: { merchantId_mode: { merchantId, mode } } });
}

/** The routes the decision reads; null when the business never saved any for this mode. */
export async function routesFor(db: Pick<Db, 'acquirerRoutes'>, merchantId: string, mode: string): Promise<Routes | null> {
  const row = await readRoutes(db, merchantId, mode);
  return row ? { rules: row.rules as unknown as Routes['rules'], defaultAccountId: row.defaultAccountId } : null;
}

/** The modes whose routes name the account (in a rule or as the default). */
export async function routesNaming(db: Pick<Db, 'acquirerRoutes'>, merchantId: string, accountId: string): Promise<string[]> {
  const rows = await db.acquirerRoutes.findMany({ where: { merchantId }, orderBy: { mode: 'asc' } });
  return rows
    .filter((r) => r.defaultAccountId === accountId || (r.rules as unknown as Routes['rules']).some((rule) => rule.accountId === accountId))
    .map((r) => r.mode);
}

export async function saveRoutes(db: Db, by: AuditSource & { username: string }, body: RoutesBody): Promise<AcquirerRoutes> {
  return db.$transaction(async (tx) => {
    await checkRoutes(tx, by.merchantId, body);
    const data = {
      rules: body.rules as unknown as Prisma.InputJsonValue,
      defaultAccountId: body.defaultAccountId,
      updatedAt: new Date(),
      updatedBy: by.username,
    };
    const saved = await tx.acquirerRoutes.upsert({
      where: { merchantId_mode: { merchantId: by.merchantId, mode: body.mode } },
      create: { merchantId: by.merchantId, mode: body.mode, version: 1, ...data },
      update: { version: { increment: 1 }, ...data },
    });
    await auditFor(tx, by, {
      action: 'ACQUIRER_ROUTES_UPDATED',
      target: { type: 'ACQUIRER_ROUTES', id: body.mode },
      details: {
        mode: body.mode,
        version: saved.version,
        rules: body.rules.map((r) => ({ name: r.name, accountId: r.accountId })),
        defaultAccountId: body.defaultAccountId,
      },
    });
    return saved;
  });
}

/** 400 naming the first field that breaks a rule of a saved list (docs/acquirers.md, "Routes and the decision"). */
async function checkRoutes(tx: Tx, merchantId: string, body: RoutesBody): Promise<void> {
  const named = [...new Set([...body.rules.map((r) => r.accountId), ...(body.defaultAccountId !== null ? [body.defaultAccountId] : [])])];
  // FOR SHARE: an account deactivated meanwhile waits for this save, then sees the route and refuses (409).
  const accounts = named.length
    ? await tx.$queryRaw<{ id: string; mode: string; status: string; acquirer: string }[]>`
        SELECT "id", "mode", "status", "acquirer" FROM "AcquirerAccount"
        WHERE "merchantId" = ${merchantId} AND "deletedAt" IS NULL AND "id" IN (${Prisma.join(named)}) FOR SHARE`
    : [];
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const accountProblem = (id: string): string | undefined => {
    const a = byId.get(id);
    if (!a) return `no acquirer account ${id} in this business`;
    if (a.mode !== body.mode) return `account ${id} is a ${a.mode} account; ${body.mode} routes name ${body.mode} accounts only`;
    if (a.status !== 'ACTIVE') return `account ${id} is inactive`;
    return undefined;
  };

  const stores = new Set(body.rules.flatMap((r) => r.match.storeExternalIds ?? []));
  const known = stores.size
    ? new Set(
        (await tx.store.findMany({ where: { merchantId, mode: body.mode, externalId: { in: [...stores] } }, select: { externalId: true } })).map(
          (s) => s.externalId,
        ),
      )
    : new Set<string>();

  const firstNamed = new Map<string, number>();
  body.rules.forEach((rule, i) => {
    const at = `rules[${i}]`;
    const earlier = firstNamed.get(rule.name);
    if (earlier !== undefined) throw invalid(`${at}.name: "${rule.name}" is already the name of rules[${earlier}]; rule names are unique`);
    firstNamed.set(rule.name, i);
    const problem = accountProblem(rule.accountId);
    if (problem) throw invalid(`${at}.accountId: ${problem}`);
    const unknown = (rule.match.storeExternalIds ?? []).findIndex((s) => !known.has(s));
    if (unknown >= 0)
      throw invalid(`${at}.match.storeExternalIds[${unknown}]: no ${body.mode} store ${rule.match.storeExternalIds![unknown]} in this business`);
    const { minAmount, maxAmount } = rule.match;
    if (minAmount !== undefined && maxAmount !== undefined && minAmount > maxAmount)
      throw invalid(`${at}.match.minAmount: must be at most maxAmount (${maxAmount})`);
  });
  if (body.defaultAccountId !== null) {
    const problem = accountProblem(body.defaultAccountId);
    if (problem) throw invalid(`defaultAccountId: ${problem}`);
  }
}
