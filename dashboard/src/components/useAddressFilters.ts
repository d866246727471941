import { useState } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A list page's filters and page number, kept in the address so that a link or a reload shows the
 * same list: `filters` as applied (text: the API validates them), `draft` as being typed, `apply`
 * to make a draft (or a change) the filters, at `nextPage`.
 */
export function useAddressFilters<K extends string>(keys: readonly K[]) {
  const [params, setParams] = useSearchParams();
  const page = Number(params.get('page') ?? 0) || 0;
  const filters = Object.fromEntries(keys.map((k) => [k, params.get(k) ?? ''])) as Record<K, string>;
  const [draft, setDraft] = useState(filters);
  const apply = (next: Partial<Record<K, string>> = {}, nextPage = 0) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...filters, ...next })) if (v) p.set(k, v as string);
    if (nextPage) p.set('page', String(nextPage));
    setParams(p);
  };
  return { page, filters, draft, setDraft, apply };
}
