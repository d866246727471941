import { useQuery } from '@tanstack/react-query';
import { api, qs, type Page } from '../api';
import type { Store } from '../types';

const PAGE_SIZE = 100;
const MAX_PAGES = 20;

/** Every store of the business in one mode (the routes' store choices), all pages read. */
export function useModeStores(mode: 'live' | 'test') {
  return useQuery({
    queryKey: ['stores', 'all', mode],
    queryFn: async () => {
      const out: Store[] = [];
      for (let page = 0; page < MAX_PAGES; page++) {
        const p = await api<Page<Store>>(`/api/dashboard/stores${qs({ mode, page, size: PAGE_SIZE })}`);
        out.push(...p.content);
        if (page + 1 >= p.totalPages) break;
      }
      return out;
    },
  });
}
