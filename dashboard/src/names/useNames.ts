import { useQuery } from '@tanstack/react-query';
import { getDashboardNames, type DashboardNames } from '@in-store-payments/client';

type Store = DashboardNames['stores'][number];

/**
 * The business's stores, terminals and users by name (GET /api/dashboard/names), read once and
 * shared by every page: rows show names, not ids, without a request per row (issue 31).
 */
/** The names' cache key: pages that create or rename a store, terminal, user or account invalidate it. */
export const NAMES_KEY = ['names'];

export function useNames() {
  const names = useQuery({ queryKey: NAMES_KEY, queryFn: async () => (await getDashboardNames()).data, staleTime: 60_000 });
  const stores: Store[] = names.data?.stores ?? [];
  const storeById = new Map(stores.map((s) => [s.externalId, s]));
  const terminalById = new Map(stores.flatMap((s) => s.terminals.map((t) => [t.externalId, t] as const)));
  const userByName = new Map((names.data?.users ?? []).map((u) => [u.username, u]));
  const userById = new Map((names.data?.users ?? []).map((u) => [String(u.id), u]));
  const accounts = names.data?.accounts ?? [];
  const accountById = new Map(accounts.map((a) => [a.id, a]));
  return {
    stores,
    accounts,
    accountName: (id: string | null | undefined) => (id ? accountById.get(id)?.name : undefined),
    storeName: (id: string | null | undefined) => (id ? storeById.get(id)?.name : undefined),
    terminalLabel: (id: string | null | undefined) => (id ? terminalById.get(id)?.label : undefined),
    displayName: (username: string | null | undefined) => (username ? (userByName.get(username)?.displayName ?? undefined) : undefined),
    /** A user by id (the audit log's actor): the display name, else the username. */
    userById: (id: string | null | undefined) => {
      const u = id ? userById.get(id) : undefined;
      return u ? (u.displayName ?? u.username) : undefined;
    },
  };
}
