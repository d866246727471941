import type { ZodType } from 'zod';
import { z } from './zod';

/** The answer side of a list: one page and its shape. The query side (paging, periods, order) is `./listQuery.ts`. */

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
