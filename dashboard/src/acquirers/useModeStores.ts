import { useQuery } from '@tanstack/react-query';
import { searchDashboardStores, type DashboardStore as Store } from '@in-store-payments/client';

const PAGE_SIZE = 100;
const MAX_PAGES = 20;

/** Every store of the business in one mode (the routes' store choices), all pages read. */
export function useModeStores(mode: 'live' | 'test') {
  return useQuery({
    queryKey: ['stores', 'all', mode],
    queryFn: async () => {
      const out: Store[] = [];
      for (let page = 0; page < MAX_PAGES; page++) {
        const { data: p } = await searchDashboardStores({ query: { mode, page, size: PAGE_SIZE } });
        out.push(...p.content);
        if (page + 1 >= p.totalPages) break;
      }
      return out;
    },
  });
}
