import { useQuery } from '@tanstack/react-query';
import { api } from '../api';
import type { AcquirerAccount } from '../types';

export const ACCOUNTS_PATH = '/api/dashboard/acquirer-accounts';
export const ROUTES_PATH = '/api/dashboard/acquirer-routes';
export const ACCOUNTS_KEY = ['acquirer-accounts'] as const;

export const accountPath = (id: string): string => `${ACCOUNTS_PATH}/${encodeURIComponent(id)}`;

/** The list answers a JSON array; a paged or `{ items }` answer is read the same. */
function accountsOf(body: AcquirerAccount[] | { items?: AcquirerAccount[]; content?: AcquirerAccount[] }): AcquirerAccount[] {
  if (Array.isArray(body)) return body;
  return body.items ?? body.content ?? [];
}

/** The business's acquirer accounts (ADMIN); `enabled` false for a user who may not read them. */
export function useAcquirerAccounts(enabled = true) {
  return useQuery({
    queryKey: ACCOUNTS_KEY,
    queryFn: async () => accountsOf(await api<AcquirerAccount[] | { items?: AcquirerAccount[] }>(ACCOUNTS_PATH)),
    enabled,
  });
}
