/** Payment statuses of spec 3. */
export const PAYMENT_STATUSES = ['CREATED', 'AWAITING_TERMINAL', 'AUTHORIZED', 'CAPTURED', 'REFUSED', 'CANCELLED', 'EXPIRED', 'ERROR', 'FAILED'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Open: the payment can still change by itself (waiting at the device, or held). */
export const OPEN_STATUSES: readonly PaymentStatus[] = ['CREATED', 'AWAITING_TERMINAL', 'AUTHORIZED'];

export const isOpenStatus = (s: string): boolean => (OPEN_STATUSES as readonly string[]).includes(s);
