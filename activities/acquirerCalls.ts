import { acquirerRejection } from '../core/acquirerFailure';
import { AcquirerRejectedError } from '../src/acquirer/port';

/**
 * The one boundary between an acquirer adapter's errors and a workflow (docs/architecture.md,
 * "Where each kind of rule lives"). Every activity that calls an acquirer goes through it:
 *
 * - a refusal (AcquirerRejectedError) becomes the ACQUIRER_REJECTED failure of
 *   core/acquirerFailure.ts, final unless `refusalRetried` (a settlement close is never dropped:
 *   docs/settlement.md);
 * - an acquirer that did not answer (AcquirerUnreachableError) and anything else are thrown as
 *   they are, so the activity's retry policy retries them.
 */
export async function callAcquirer<T>(call: () => Promise<T>, opts: { refusalRetried?: boolean } = {}): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof AcquirerRejectedError) throw acquirerRejection(err.message, { status: err.status, code: err.code }, { retried: opts.refusalRetried });
    throw err;
  }
}

/** A read of something we submitted (a refund, a void): null when the acquirer never received it (its 404), else as callAcquirer. */
export function readAtAcquirer<T>(call: () => Promise<T>): Promise<T | null> {
  return callAcquirer(async () => {
    try {
      return await call();
    } catch (err) {
      if (err instanceof AcquirerRejectedError && err.status === 404) return null;
      throw err;
    }
  });
}
