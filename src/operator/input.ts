import { invalid } from '../domain/errors';

/** Checks of operator input; a refusal is a DomainError of kind `invalid` (the CLI's exit 2). */

/** A required text value: trimmed, non-empty, bounded; the message names the option. */
export function requireText(field: string, value: string | undefined, maxLength: number): string {
  const text = (value ?? '').trim();
  if (!text) throw invalid(`${field}: must not be empty`);
  if (text.length > maxLength) throw invalid(`${field}: must be at most ${maxLength} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(text)) throw invalid(`${field}: must not contain control characters`);
  return text;
}

/** An identifier that travels in URLs and logs: letters, digits, '.', '_', '-'. */
export function requireIdentifier(field: string, value: string | undefined, maxLength = 64): string {
  const text = requireText(field, value, maxLength);
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(text)) {
    throw invalid(`${field}: must start with a letter or digit and contain only letters, digits, '.', '_' and '-'`);
  }
  return text;
}
