import { useQuery } from '@tanstack/react-query';
import { listAcquirerAccounts } from '@in-store-payments/client';

export const ACCOUNTS_KEY = ['acquirer-accounts'] as const;

/** The business's acquirer accounts (ADMIN); `enabled` false for a user who may not read them. */
export function useAcquirerAccounts(enabled = true) {
  return useQuery({
    queryKey: ACCOUNTS_KEY,
    queryFn: async () => (await listAcquirerAccounts()).data,
    enabled,
  });
}
