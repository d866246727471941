/**
 * The dashboard's areas and the API area (the role table, src/auth/roles.ts) each needs, in the
 * sections of the sidebar (docs/dashboard.md, "Navigation"). The link names are those of
 * docs/dashboard.md's navigation table.
 */
export interface NavItem {
  label: string;
  path: string;
  area: string;
}

export interface NavSection {
  title: string;
  items: NavItem[];
}

export const NAV_SECTIONS: NavSection[] = [
  {
    title: 'Sales',
    items: [
      { label: 'Payments', path: '/payments', area: 'sharedViews' },
      { label: 'Bills', path: '/bills', area: 'sharedViews' },
    ],
  },
  {
    title: 'Money',
    items: [
      { label: 'Settlements', path: '/settlements', area: 'finance' },
      { label: 'Payouts', path: '/payouts', area: 'finance' },
      { label: 'Balances', path: '/balances', area: 'finance' },
      { label: 'Tips', path: '/tips', area: 'finance' },
    ],
  },
  {
    title: 'Risk',
    items: [{ label: 'Disputes', path: '/disputes', area: 'disputes' }],
  },
  {
    title: 'Set-up',
    items: [
      { label: 'Stores', path: '/stores', area: 'stores' },
      { label: 'Webhooks', path: '/webhooks', area: 'webhooks' },
      { label: 'API keys', path: '/api-keys', area: 'apiKeys' },
      { label: 'Acquirer accounts', path: '/acquirer-accounts', area: 'acquirerAccounts' },
      { label: 'Users', path: '/users', area: 'users' },
      { label: 'Audit log', path: '/audit-log', area: 'auditLogs' },
    ],
  },
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
