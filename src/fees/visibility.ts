import { areasOfRoles, type Area } from '../auth/roles';
import type { Principal } from '../auth/principal';

/**
 * Who may read what the cost contracts say (docs/payouts-and-fees.md, docs/security.md "Rules added
 * in the security round (issue 37)"): the roles reaching this area, ADMIN and FINANCE, read a
 * contract (GET /api/dashboard/acquirer-accounts/{id}/cost-contract) and so a payment's
 * `expectedFee`, the fee its contract gives it. Other roles and API keys get the payment without it.
 */
export const COST_CONTRACT_AREA: Area = 'finance';

/** What a payment record shows its caller. */
export interface PaymentView {
  /** The cost contract's figure (`expectedFee`). */
  costs: boolean;
}

export function paymentViewOf(principal: Principal): PaymentView {
  return { costs: principal.kind === 'user' && areasOfRoles(principal.roles).has(COST_CONTRACT_AREA) };
}

/** The operator CLI (trusted, docs/operator-cli.md) sees everything. */
export const OPERATOR_VIEW: PaymentView = { costs: true };
