/** The security events the audit log records (docs/users-and-keys.md, "Audit log"; issue 5). Other areas may add their own names. */
export const AUDIT_ACTIONS = [
  'LOGIN_SUCCEEDED',
  'LOGIN_FAILED',
  'ACCOUNT_LOCKED',
  'ACCOUNT_UNLOCKED',
  'LOGOUT',
  'USER_CREATED',
  'PROFILE_UPDATED',
  'ROLE_CHANGED',
  'USER_DISABLED',
  'USER_ENABLED',
  'PASSWORD_RESET',
  'MFA_ENROLLED',
  'MFA_RESET',
  'API_KEY_CREATED',
  'API_KEY_ROTATED',
  'API_KEY_REVOKED',
  'SETTLEMENT_CLOSED',
  'ACQUIRER_ACCOUNT_CREATED',
  'ACQUIRER_ACCOUNT_UPDATED',
  'ACQUIRER_ACCOUNT_DELETED',
  'ACQUIRER_ROUTES_UPDATED',
  'COST_CONTRACT_UPDATED',
  'DISPUTE_EVIDENCE_SAVED',
  'DISPUTE_SUBMITTED',
  'DISPUTE_ACCEPTED',
  'DISPUTE_ANSWER_REFUSED',
  'BILL_TENDER_RECORDED',
  'BILL_CANCEL_REQUESTED',
  'RECEIPT_SEND_REQUESTED',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who did it: a signed-in user, an API key, the operator command line, nobody known (failed sign-in), or the service itself (the daily settlement close). */
export const ACTOR_TYPES = ['USER', 'API_KEY', 'OPERATOR', 'ANONYMOUS', 'SYSTEM'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];
