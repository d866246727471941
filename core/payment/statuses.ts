/**
 * Payment statuses (docs/payments.md, "States and transitions") and the words around them. Pure definitions shared by the
 * workflow (deterministic code) and the API, so both speak of the same states.
 */
export const PAYMENT_STATUSES = [
  'CREATED',
  'AWAITING_TERMINAL',
  'AUTHORIZED',
  'CAPTURED',
  'REFUSED',
  'CANCELLED',
  'EXPIRED',
  'ERROR',
  'FAILED',
  // post-sale (docs/refunds.md, docs/settlement.md): reached only from CAPTURED
  'PARTIALLY_REFUNDED',
  'REFUNDED',
  'SETTLED',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Open statuses: the ones the creation idempotency protects (docs/payments.md, "Rules and decisions"). */
export const OPEN_STATUSES: readonly PaymentStatus[] = ['CREATED', 'AWAITING_TERMINAL', 'AUTHORIZED'];

/**
 * Final statuses, every status but the open ones: the sale is decided and the acquirer's word
 * about the bill no longer changes it. Only post-sale operations move a decided payment on: a void
 * (CAPTURED to CANCELLED), refunds (to PARTIALLY_REFUNDED, REFUNDED) and settlement (to SETTLED).
 */
export const FINAL_STATUSES: readonly PaymentStatus[] = PAYMENT_STATUSES.filter((s) => !OPEN_STATUSES.includes(s));
/** Statuses a refund may start from (docs/refunds.md, "Rules"). */
export const REFUNDABLE_STATUSES: readonly PaymentStatus[] = ['CAPTURED', 'SETTLED', 'PARTIALLY_REFUNDED'];
export const isRefundable = (s: string): boolean => (REFUNDABLE_STATUSES as readonly string[]).includes(s);
/** Statuses a settlement batch takes a payment in: captured, possibly refunded since (docs/settlement.md). */
export const SETTLEABLE_STATUSES: readonly string[] = ['CAPTURED', 'PARTIALLY_REFUNDED', 'REFUNDED'];
export const isSettleable = (s: string): boolean => SETTLEABLE_STATUSES.includes(s);
/** A bill is (or may be) on the device: the statuses the one-open-bill-per-terminal rule counts. */
export const ON_DEVICE_STATUSES: readonly PaymentStatus[] = ['CREATED', 'AWAITING_TERMINAL'];

export const isFinal = (s: string): boolean => (FINAL_STATUSES as readonly string[]).includes(s);
export const isOpen = (s: string): boolean => (OPEN_STATUSES as readonly string[]).includes(s);

/** Who caused a status event (history `source`, docs/payments.md): the API request, the sweep, the terminal side, or the workflow's own timers. */
export const HISTORY_SOURCES = ['API', 'SWEEP', 'TERMINAL', 'WORKFLOW'] as const;
export type HistorySource = (typeof HISTORY_SOURCES)[number];

/** Values of Payment.reason (docs/payments.md, "The payment record"): a cancel on the device, and what explains ERROR, FAILED and operator clears. */
export const REASONS = {
  cancelledAtTerminal: 'CANCELLED_AT_TERMINAL',
  clearedByOperator: 'CLEARED_BY_OPERATOR',
  terminalError: 'TERMINAL_ERROR',
  acquirerUnreachable: 'ACQUIRER_UNREACHABLE',
  acquirerRejected: 'ACQUIRER_REJECTED',
  /** A two-step authorisation nobody completed or released within AUTHORIZATION_WINDOW_MINUTES. */
  authorizationExpired: 'AUTHORIZATION_EXPIRED',
} as const;

export type PaymentMode = 'CARD' | 'QR_CODE';
export const PAYMENT_MODES: readonly PaymentMode[] = ['CARD', 'QR_CODE'];
