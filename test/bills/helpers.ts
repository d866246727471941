import { call, type HttpResult } from '../support/http';
import type { TestStack } from '../support/stack';
import { eventually, type Shop } from '../payments/helpers';

/** A bill's requests and reads through the public API, for the bill tests (docs/bills.md). */
export function bills(stack: TestStack) {
  const uid = () => Math.random().toString(36).slice(2, 10);
  const read = (shop: Shop, id: string) => call(stack.apiUrl, 'GET', `/api/in-store/bills/${id}`, { key: shop.key });
  const events = async (id: string) =>
    (await stack.db.webhookEvent.findMany({ where: { eventType: { startsWith: 'BILL_' } }, orderBy: { createdAt: 'asc' } }))
      .map((e) => JSON.parse(e.body!))
      .filter((e) => e.data.bill.id === id);
  return {
    create: (shop: Shop, over: Record<string, unknown> = {}): Promise<HttpResult> =>
      call(stack.apiUrl, 'POST', '/api/in-store/bills', {
        key: shop.key,
        body: {
          merchantExternalId: shop.merchantExternalId,
          storeExternalId: shop.storeExternalId,
          reference: `table-${uid()}`,
          amount: 40,
          currency: 'EUR',
          ...over,
        },
      }),
    read,
    cancel: (shop: Shop, id: string) => call(stack.apiUrl, 'POST', `/api/in-store/bills/${id}/cancel`, { key: shop.key }),
    /** Waits until the bill reads `status`; answers it. */
    becomes: (shop: Shop, id: string, status: string, timeoutMs = 30_000) =>
      eventually(async () => {
        const r = await read(shop, id);
        return r.body.status === status ? r.body : undefined;
      }, timeoutMs),
    events,
    /** The bill's events once `last` is written (published after the row), read again a moment later so a duplicate shows. */
    async eventsEndingWith(id: string, last: string) {
      await eventually(async () => ((await events(id)).some((e) => e.eventType === last) ? true : undefined));
      await new Promise((r) => setTimeout(r, 300));
      return events(id);
    },
  };
}
