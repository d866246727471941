/**
 * The acquirers a route may send payments to. createAcquirers (src/acquirer/acquirers.ts) also
 * builds adyen's adapter, but adyen stays out until its two-step completion/release and settlement
 * report exist (issue 25): its accounts can be registered and notified, not routed to.
 */
const WITH_ADAPTER = new Set(['sandbox', 'stripe']);

export const hasAdapter = (acquirer: string): boolean => WITH_ADAPTER.has(acquirer);
