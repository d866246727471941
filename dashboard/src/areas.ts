/**
 * The dashboard's areas and the API area (the role table, src/auth/roles.ts) each needs. The link
 * names are those of docs/dashboard.md's navigation table.
 */
export interface NavItem {
  label: string;
  path: string;
  area: string;
}

export const NAV: NavItem[] = [
  { label: 'Payments', path: '/payments', area: 'sharedViews' },
  { label: 'Bills', path: '/bills', area: 'sharedViews' },
  { label: 'Stores', path: '/stores', area: 'stores' },
  { label: 'Webhooks', path: '/webhooks', area: 'webhooks' },
  { label: 'Settlements', path: '/settlements', area: 'finance' },
  { label: 'Payouts', path: '/payouts', area: 'finance' },
  { label: 'Balances', path: '/balances', area: 'finance' },
  { label: 'Users', path: '/users', area: 'users' },
  { label: 'API keys', path: '/api-keys', area: 'apiKeys' },
  { label: 'Audit log', path: '/audit-log', area: 'auditLogs' },
  { label: 'Acquirer accounts', path: '/acquirer-accounts', area: 'acquirerAccounts' },
  { label: 'Disputes', path: '/disputes', area: 'disputes' },
];

/** Acquirer accounts and routes (docs/acquirers.md): ADMIN. */
export const ACQUIRER_AREA = 'acquirerAccounts';

/** Disputes (docs/disputes.md): read in the 'disputes' area (ADMIN, COMPLIANCE, FINANCE), answered in 'compliance' (ADMIN, COMPLIANCE). */
export const DISPUTE_AREA = 'disputes';
export const DISPUTE_ANSWER_AREA = 'compliance';

/** Refunds belong to ADMIN and FINANCE (docs/refunds.md): the finance area. */
export const REFUND_AREA = 'finance';

/** Sending a receipt (docs/receipts.md): ADMIN, FINANCE and OPERATIONS, the roles that reach finance or stores. */
export const RECEIPT_SEND_AREAS: readonly string[] = ['finance', 'stores'];
