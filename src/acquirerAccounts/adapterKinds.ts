/**
 * The acquirers this version has an adapter for (createAcquirers in src/acquirer/acquirers.ts builds them). An
 * account of another acquirer can be registered, but no route may send payments to it yet.
 */
const WITH_ADAPTER = new Set(['sandbox', 'stripe']);

export const hasAdapter = (acquirer: string): boolean => WITH_ADAPTER.has(acquirer);
