import { conflict, type DomainError, unavailable } from '../domain/errors';
import { AcquirerRejectedError, AcquirerUnreachableError } from './port';

/** Where more words help: what was asked (`doing`), what it means for the caller (`outcome`), a refusal's lead (`prefix`, e.g. "void not permitted: "). */
export interface AcquirerFailureWords {
  prefix?: string;
  doing?: string;
  outcome?: string;
}

/**
 * The one mapping of an acquirer adapter's error to the API's (docs/architecture.md, "Where each
 * kind of rule lives"): an acquirer's HTTP status never becomes ours. A refusal is 409 (the
 * acquirer, not the merchant's request, said no: its 401 or 404 is about our credentials or its
 * records), an acquirer that did not answer 503 with Retry-After 2 (docs/payments.md). Undefined for
 * any other error. src/http/errors.ts applies it to whatever reaches it; domain code applies it
 * where its own words say more.
 */
export function acquirerFailureError(err: unknown, words: AcquirerFailureWords = {}): DomainError | undefined {
  const outcome = words.outcome ? `; ${words.outcome}` : '';
  if (err instanceof AcquirerUnreachableError)
    return unavailable(`the acquirer did not answer${words.doing ? ` ${words.doing}` : ''}${outcome}; retry shortly`, 2);
  if (err instanceof AcquirerRejectedError)
    return conflict(`${words.prefix ?? ''}the acquirer refused ${words.doing ?? 'the request'} (it answered ${err.status})${outcome}`);
  return undefined;
}
