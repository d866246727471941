import { ApiError } from '../api';

/**
 * An answer the API refused, in words: what the status means for the merchant, then the API's own
 * reason (it names the field of a 400, or why a dispute cannot be answered now for a 409).
 */
export function refusalWords(err: unknown): string {
  if (!(err instanceof ApiError)) return err instanceof Error ? err.message : String(err);
  const lead: Record<number, string> = {
    400: 'Not accepted: the statement was refused',
    403: 'Not allowed: your roles may read disputes but not answer them',
    404: 'Not found: this dispute is not one of your business',
    409: 'Not possible now',
    503: 'The acquirer did not answer in time; nothing was changed, try again',
  };
  return `${lead[err.status] ?? 'Refused'} (${err.status}): ${err.message}`;
}
