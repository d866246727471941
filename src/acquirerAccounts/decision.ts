import Decimal from 'decimal.js';
import type { PaymentMode } from '../../core/payment/statuses';

/**
 * Which account takes a new payment (docs/acquirers.md, "Routes and the decision"): the first rule in order whose
 * every given condition holds; no rule: the default account; none: the installation default.
 * Pure, so the order of the checks is tested without a stack (decision.unit.test.ts).
 */
export interface RuleMatch {
  storeExternalIds?: string[];
  currencies?: string[];
  paymentModes?: PaymentMode[];
  minAmount?: number;
  maxAmount?: number;
}
export interface Rule {
  name: string;
  accountId: string;
  match: RuleMatch;
}
export interface Routes {
  rules: Rule[];
  defaultAccountId: string | null;
}
export interface PaymentFacts {
  storeExternalId: string;
  currency: string;
  /** The single requested mode, or CARD when the mode is left open. */
  paymentMode: PaymentMode;
  /** Exact decimal. */
  amount: string;
}

export const DEFAULT_RULE = 'default';
export const INSTALLATION_RULE = 'installation';

export type Decision = { accountId: string; rule: string } | { accountId: null; rule: typeof INSTALLATION_RULE };

export function decide(routes: Routes | null, facts: PaymentFacts): Decision {
  if (!routes) return { accountId: null, rule: INSTALLATION_RULE };
  const amount = new Decimal(facts.amount);
  const rule = routes.rules.find((r) => matches(r.match, facts, amount));
  if (rule) return { accountId: rule.accountId, rule: rule.name };
  if (routes.defaultAccountId) return { accountId: routes.defaultAccountId, rule: DEFAULT_RULE };
  return { accountId: null, rule: INSTALLATION_RULE };
}

function matches(m: RuleMatch, facts: PaymentFacts, amount: Decimal): boolean {
  if (m.storeExternalIds && !m.storeExternalIds.includes(facts.storeExternalId)) return false;
  if (m.currencies && !m.currencies.includes(facts.currency)) return false;
  if (m.paymentModes && !m.paymentModes.includes(facts.paymentMode)) return false;
  if (m.minAmount !== undefined && amount.lt(m.minAmount.toString())) return false;
  if (m.maxAmount !== undefined && amount.gt(m.maxAmount.toString())) return false;
  return true;
}

/** The mode a rule sees: the one requested mode, else CARD (docs/acquirers.md, "Routes and the decision"). */
export const routedMode = (requestedModes: readonly PaymentMode[] | undefined): PaymentMode => (requestedModes?.length === 1 ? requestedModes[0]! : 'CARD');
