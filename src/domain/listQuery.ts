import { z } from './zod';
import type { Paging } from './paging';

/**
 * The list-query kit: what every list endpoint takes in its query string and how that becomes a
 * Prisma query. Paging is docs/stores-and-terminals.md's and docs/users-and-keys.md's (`page`
 * 0-based, `size` default 20, at most 100, larger is 400); a period is `from` inclusive and `to`
 * exclusive (docs/settlement.md, docs/disputes.md, docs/payouts-and-fees.md); a list is newest
 * first, ties broken by id. The answer's shape is `src/domain/paging.ts`.
 */

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;

/** `page` and `size` as numbers, defaults applied; extended by each list with its filters. */
export const PagingQuery = z.object({
  page: z.coerce.number({ message: 'must be an integer' }).int('must be an integer').min(0, 'must be 0 or more').default(0),
  size: z.coerce
    .number({ message: 'must be an integer' })
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(PAGE_SIZE_MAX, `must be at most ${PAGE_SIZE_MAX}`)
    .default(PAGE_SIZE_DEFAULT),
});

/** ISO 8601 date (midnight UTC) or date-time with an offset. */
export const instant = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })], { message: 'must be an ISO 8601 date or date-time' })
  .transform((v) => new Date(v.length === 10 ? `${v}T00:00:00Z` : v));

/** A business date, `YYYY-MM-DD` (docs/settlement.md). */
export const businessDate = z.iso.date('must be a date YYYY-MM-DD');

/**
 * The `from`/`to` query fields of a period, to spread into a list's query at the place they stand:
 * `point` is what one end is (default `instant`), `what` how each end's description goes on
 * (", ISO 8601 date or date-time, compared with createdAt", " business date", ...).
 */
export function dateRange<T extends z.ZodType>(what: string, point: T): { from: z.ZodOptional<T>; to: z.ZodOptional<T> };
export function dateRange(what: string): { from: z.ZodOptional<typeof instant>; to: z.ZodOptional<typeof instant> };
export function dateRange(what: string, point: z.ZodType = instant) {
  return {
    from: point.optional().openapi({ description: `inclusive${what}` }),
    to: point.optional().openapi({ description: `exclusive${what}` }),
  };
}

/** A period as given: either end may be absent. */
export interface DateRange<T = Date | string> {
  from?: T;
  to?: T;
}

/** The period as a Prisma `where` on `field` (`gte` from, `lt` to); no end given: nothing. */
export function dateWhere<F extends string, T>(field: F, range: DateRange<T>): { [K in F]?: { gte?: T; lt?: T } } {
  if (!range.from && !range.to) return {};
  return { [field]: { ...(range.from ? { gte: range.from } : {}), ...(range.to ? { lt: range.to } : {}) } } as { [K in F]?: { gte?: T; lt?: T } };
}

/** One page as Prisma's `skip` and `take`. */
export function pageArgs(paging: Paging): { skip: number; take: number } {
  return { skip: paging.page * paging.size, take: paging.size };
}

/** Newest first by `field`, then by id: a stable order for paging. */
export function newestFirst<F extends string>(field: F): [{ [K in F]: 'desc' }, { id: 'desc' }] {
  return [{ [field]: 'desc' } as { [K in F]: 'desc' }, { id: 'desc' }];
}

/** A list's Prisma arguments from its query: newest first by `field`, one page. */
export function listArgs<F extends string>(field: F, paging: Paging) {
  return { orderBy: newestFirst(field), ...pageArgs(paging) };
}
