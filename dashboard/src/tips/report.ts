import { client } from '@in-store-payments/client';

/**
 * The tips report (docs/dashboard.md, "Tips"): GET /api/dashboard/tips, FINANCE and ADMIN,
 * one row per business date, store, cashier and currency. Called through the configured client
 * (the session token in the Authorization header, errors as ApiError) by its path: the typed
 * function the generator makes from the API description can replace these calls once it is there.
 */
export interface TipsRow {
  businessDate: string;
  storeExternalId: string;
  /** null: the payments taken without a cashier. */
  cashierId: string | null;
  currency: string;
  /** The payments captured, tipped or not. */
  count: number;
  tipAmount: number | string;
}

export interface TipsPage {
  content: TipsRow[];
  totalElements: number;
  totalPages: number;
  page: number;
  size: number;
}

/** The report's filters as the address holds them; the API validates them. */
export interface TipsFilters {
  from?: string;
  to?: string;
  storeExternalId?: string;
  currency?: string;
  /** live (the API's default) or test. */
  mode?: string;
}

const PATH = '/api/dashboard/tips';
const SESSION = [{ scheme: 'bearer', type: 'http' }] as const;

export async function fetchTipsPage(filters: TipsFilters, page: number, size: number): Promise<TipsPage> {
  const res = await client.get<{ 200: TipsPage }, unknown, true>({ url: PATH, security: SESSION, query: { ...filters, page, size } });
  return res.data;
}

/** The same rows as CSV (`?format=csv`). */
export async function fetchTipsCsv(filters: TipsFilters): Promise<string> {
  const res = await client.get<{ 200: string }, unknown, true>({
    url: PATH,
    security: SESSION,
    query: { ...filters, format: 'csv' },
    parseAs: 'text',
    headers: { Accept: 'text/csv' },
  });
  return String(res.data);
}

/** The CSV's address: what the *Download CSV* link names (the page fetches it with the session, never a token in an address). */
export function tipsCsvAddress(filters: TipsFilters): string {
  const q = new URLSearchParams({ ...(filters as Record<string, string>), format: 'csv' });
  return `${PATH}?${q.toString()}`;
}
