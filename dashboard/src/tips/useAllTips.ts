import { useQuery } from '@tanstack/react-query';
import { fetchTipsPage, type TipsFilters, type TipsRow } from './report';

/** Pages read for the chart at most: 2,000 rows, a month of some sixty cashiers; more is said, not drawn. */
export const CHART_PAGES = 20;
const SIZE = 100;

/** Every row the filters select (up to CHART_PAGES pages), for the chart of tips per day. */
export function useAllTips(filters: TipsFilters) {
  return useQuery({
    queryKey: ['tips', 'all', filters],
    queryFn: async (): Promise<{ rows: TipsRow[]; complete: boolean }> => {
      const rows: TipsRow[] = [];
      for (let p = 0; p < CHART_PAGES; p++) {
        const page = await fetchTipsPage(filters, p, SIZE);
        rows.push(...page.content);
        if (p + 1 >= page.totalPages) return { rows, complete: true };
      }
      return { rows, complete: false };
    },
  });
}
