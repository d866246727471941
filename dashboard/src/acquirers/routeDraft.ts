import type { AcquirerRouteMatch as RouteMatch, AcquirerRouteRule as RouteRule, AcquirerRoutes } from '@in-store-payments/client';

/**
 * A route rule as the form edits it: text inputs as typed, a stable key so that a row keeps its
 * inputs (and its error) when moved. Converted to the API's rule on save.
 */
export interface RuleDraft {
  key: string;
  name: string;
  accountId: string;
  storeExternalIds: string[];
  currencies: string;
  paymentModes: ('CARD' | 'QR_CODE')[];
  minAmount: string;
  maxAmount: string;
}

export const PAYMENT_MODES = ['CARD', 'QR_CODE'] as const;

let counter = 0;
const nextKey = (): string => `rule-${++counter}`;

export function emptyRule(): RuleDraft {
  return { key: nextKey(), name: '', accountId: '', storeExternalIds: [], currencies: '', paymentModes: [], minAmount: '', maxAmount: '' };
}

export function draftOf(rule: RouteRule): RuleDraft {
  const m = rule.match ?? {};
  return {
    key: nextKey(),
    name: rule.name,
    accountId: rule.accountId,
    storeExternalIds: m.storeExternalIds ?? [],
    currencies: (m.currencies ?? []).join(', '),
    paymentModes: m.paymentModes ?? [],
    minAmount: m.minAmount === undefined || m.minAmount === null ? '' : String(m.minAmount),
    maxAmount: m.maxAmount === undefined || m.maxAmount === null ? '' : String(m.maxAmount),
  };
}

/** An amount as a JSON number; text that is no number goes as typed, for the API to name the field. */
function amount(text: string): number | string | undefined {
  const t = text.trim();
  if (!t) return undefined;
  const n = Number(t.replace(',', '.'));
  return Number.isFinite(n) ? n : t;
}

/** The API's rule: only the conditions given; currencies split on commas or spaces, upper case. */
export function ruleOf(d: RuleDraft): RouteRule {
  const match: Record<string, unknown> = {};
  if (d.storeExternalIds.length) match.storeExternalIds = d.storeExternalIds;
  const currencies = d.currencies
    .split(/[\s,]+/)
    .map((c) => c.trim().toUpperCase())
    .filter(Boolean);
  if (currencies.length) match.currencies = currencies;
  if (d.paymentModes.length) match.paymentModes = PAYMENT_MODES.filter((m) => d.paymentModes.includes(m));
  const min = amount(d.minAmount);
  if (min !== undefined) match.minAmount = min;
  const max = amount(d.maxAmount);
  if (max !== undefined) match.maxAmount = max;
  return { name: d.name.trim(), accountId: d.accountId, match: match as RouteMatch };
}

export function saveBody(mode: 'live' | 'test', rules: RuleDraft[], defaultAccountId: string) {
  return { mode, rules: rules.map(ruleOf), defaultAccountId: defaultAccountId || null } satisfies Pick<AcquirerRoutes, 'mode' | 'rules' | 'defaultAccountId'>;
}

/** Moves the item at `from` by `by` places (-1 up, +1 down). */
export function moved<T>(list: T[], from: number, by: -1 | 1): T[] {
  const to = from + by;
  if (to < 0 || to >= list.length) return list;
  const out = [...list];
  [out[from], out[to]] = [out[to]!, out[from]!];
  return out;
}
