import type { Context } from 'koa';
import type { Paging } from '../domain/paging';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../domain/listQuery';

/**
 * Answers one page of a list whose response is a plain JSON array (GET stores, GET
 * a store's terminals): the body stays the array; `X-Total-Count` gives every match and `Link`
 * (RFC 8288) the next page while there is one, so a client can tell the list goes on.
 */
export function answerArrayPage(ctx: Context, items: unknown[], total: number, paging: Paging): void {
  ctx.set('X-Total-Count', String(total));
  if ((paging.page + 1) * paging.size < total) {
    const next = new URLSearchParams({ page: String(paging.page + 1), size: String(paging.size) });
    ctx.set('Link', `<${ctx.path}?${next.toString()}>; rel="next"`);
  }
  ctx.body = items;
}

/** The headers above, for the OpenAPI document. */
export const ARRAY_PAGE_HEADERS_NOTE = `One page (query page, size; default size ${PAGE_SIZE_DEFAULT}, at most ${PAGE_SIZE_MAX}); X-Total-Count: every match; Link rel="next" while more follow`;
