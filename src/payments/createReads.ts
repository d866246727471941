import type { Routes } from '../acquirerAccounts/decision';
import type { ApiKeyPrincipal } from '../auth/principal';
import type { Db } from '../db/client';
import { Prisma, type Store, type Terminal } from '../generated/prisma/client';
import { OPEN_STATUSES } from '../../core/payment/statuses';

/** What creating a payment needs of the terminal and its store. */
export type TillTerminal = Pick<Terminal, 'id' | 'externalId' | 'deviceId' | 'twoStep' | 'status'>;
export type TillStore = Pick<Store, 'id' | 'externalId' | 'status'>;
export interface TillRow extends TillTerminal {
  storeId: string;
  storeExternalId: string;
  storeStatus: string;
  tippingEnabled: boolean;
  tipPercentages: number[];
  tipAllowCustom: boolean;
}

/** Everything a create reads before it writes, as of one moment. */
export interface CreateReads {
  till: TillRow;
  /** The open payment with the same reference (idempotency), or null. */
  openWithReference: string | null;
  /** The business's routes of the key's mode; null when it never saved any. */
  routes: Routes | null;
}

interface Row extends TillRow {
  openId: string | null;
  routesSaved: boolean;
  rules: unknown;
  defaultAccountId: string | null;
}

/**
 * The terminal and its store, an open payment with the same reference and the business's acquirer
 * routes, in one statement (docs/benchmark.md, "Issue 41, fourth point"): three reads every create
 * makes, each still read fresh, so a disabled terminal or a changed route counts at once.
 * Undefined when the store or the terminal is not the key's.
 */
export async function readForCreate(
  db: Pick<Db, '$queryRaw'>,
  principal: Pick<ApiKeyPrincipal, 'merchantId' | 'mode'>,
  till: { storeExternalId: string; terminalExternalId: string },
  sameBill: { reference: string | null; sequenceNumber: number | null },
): Promise<CreateReads | undefined> {
  // The reference's read as Prisma wrote it (sequenceNumber null is its own value), so the partial unique index serves it.
  const [row] = await db.$queryRaw<Row[]>`
    SELECT t."id", t."externalId", t."deviceId", t."twoStep", t."status",
           s."id" AS "storeId", s."externalId" AS "storeExternalId", s."status" AS "storeStatus",
           s."tippingEnabled", s."tipPercentages", s."tipAllowCustom",
           (SELECT p."id" FROM "Payment" p
             WHERE p."merchantId" = ${principal.merchantId} AND p."mode" = ${principal.mode}
               AND p."reference" = ${sameBill.reference}::text
               AND p."sequenceNumber" IS NOT DISTINCT FROM ${sameBill.sequenceNumber}::integer
               AND p."status" IN (${Prisma.join(OPEN_STATUSES)})
             LIMIT 1) AS "openId",
           r."merchantId" IS NOT NULL AS "routesSaved", r."rules", r."defaultAccountId"
    FROM "Terminal" t JOIN "Store" s ON s."id" = t."storeId"
    LEFT JOIN "AcquirerRoutes" r ON r."merchantId" = ${principal.merchantId} AND r."mode" = ${principal.mode}
    WHERE t."merchantId" = ${principal.merchantId} AND t."externalId" = ${till.terminalExternalId}
      AND s."merchantId" = ${principal.merchantId} AND s."externalId" = ${till.storeExternalId} AND s."mode" = ${principal.mode}
    LIMIT 1`;
  if (!row) return undefined;
  const { openId, routesSaved, rules, defaultAccountId, ...tillRow } = row;
  // jsonb comes back parsed from PostgreSQL and as text from some drivers.
  const parsedRules = (typeof rules === 'string' ? JSON.parse(rules) : rules) as Routes['rules'];
  return {
    till: tillRow,
    openWithReference: openId,
    routes: routesSaved ? { rules: parsedRules, defaultAccountId } : null,
  };
}
