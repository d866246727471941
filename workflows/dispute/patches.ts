/**
 * Every patch of the dispute workflow (Temporal's versioning, as workflows/payment/patches.ts):
 * `patched(id)` is false when a history recorded before it replays. Retire after: the longest a
 * dispute lives (its response window, 168 h by default, plus the decision) past the day it shipped,
 * with a margin.
 */
import type { Patch } from '../payment/patches';

export const DISPUTE_PATCHES = {
  /** Before it, opening a dispute did not evaluate the compliance alerts of its payment's store and account. */
  complianceOnOpen: {
    id: 'dispute-compliance-on-open',
    shipped: '2026-11-26',
    retireAfter: '2027-01-26',
    why: 'a dispute that opens evaluates the compliance alerts',
  } satisfies Patch,
} as const;
