/**
 * The API's 400 message names each field and its reason (`rules[2].accountId: ...; ...`, see
 * src/http/validation.ts). These helpers place each reason at its rule's input.
 */
export type RuleField = 'name' | 'accountId' | 'storeExternalIds' | 'currencies' | 'paymentModes' | 'minAmount' | 'maxAmount' | 'rule';

export interface RouteFieldErrors {
  /** By rule position in the list sent, then field. */
  rules: Record<number, Partial<Record<RuleField, string>>>;
  defaultAccountId?: string;
}

const RULE_FIELDS: readonly string[] = ['name', 'accountId', 'storeExternalIds', 'currencies', 'paymentModes', 'minAmount', 'maxAmount'];

/** `rules[2].match.minAmount: must be ...` → rule 2, field minAmount. Parts naming no field of the form are left out. */
export function routeFieldErrors(message: string): RouteFieldErrors {
  const out: RouteFieldErrors = { rules: {} };
  for (const part of message.split(/;\s+(?=[\w.[\]]+\s*:)/)) {
    const m = /^\s*(?:body\.)?([\w.[\]]+?)\s*:\s*([\s\S]*)$/.exec(part);
    if (!m) continue;
    const [, field, reason] = m as unknown as [string, string, string];
    if (field === 'defaultAccountId') {
      out.defaultAccountId = reason;
      continue;
    }
    const rule = /^rules\[(\d+)\](?:\.(?:match\.)?(\w+))?/.exec(field);
    if (!rule) continue;
    const index = Number(rule[1]);
    const name = rule[2] && RULE_FIELDS.includes(rule[2]) ? (rule[2] as RuleField) : 'rule';
    const row = (out.rules[index] ??= {});
    row[name] = row[name] ? `${row[name]}; ${reason}` : reason;
  }
  return out;
}
