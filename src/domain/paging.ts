import type { ZodType } from 'zod';
import { z } from './zod';

/** Paging of contracts 2: `page` 0-based, `size` default 20, at most 100 (larger is 400). */
export const PagingQuery = z.object({
  page: z.coerce.number({ message: 'must be an integer' }).int('must be an integer').min(0, 'must be 0 or more').default(0),
  size: z.coerce.number({ message: 'must be an integer' }).int('must be an integer').min(1, 'must be at least 1').max(100, 'must be at most 100').default(20),
});

/** A validated page: 0-based `page` and its `size`. */
export interface Paging {
  page: number;
  size: number;
}

export interface Page<T> {
  content: T[];
  totalElements: number;
  totalPages: number;
  page: number;
  size: number;
}

export function pageOf<T>(content: T[], totalElements: number, paging: Paging): Page<T> {
  return { content, totalElements, totalPages: Math.ceil(totalElements / paging.size), page: paging.page, size: paging.size };
}

export function pagedSchema(item: ZodType, name: string) {
  return z
    .object({ content: z.array(item), totalElements: z.number().int(), totalPages: z.number().int(), page: z.number().int(), size: z.number().int() })
    .openapi(name);
}
