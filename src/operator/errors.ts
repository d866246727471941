/**
 * Why an operator action was refused. The kind lets each caller answer its own way: the CLI maps
 * `invalid` to a usage error (exit 2) and the others to exit 1; other code can map them to
 * HTTP 400 / 404 / 409.
 */
export type OperatorErrorKind = 'invalid' | 'not_found' | 'conflict';

export class OperatorError extends Error {
  constructor(
    readonly kind: OperatorErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'OperatorError';
  }
}

export const invalid = (message: string): OperatorError => new OperatorError('invalid', message);
export const notFound = (message: string): OperatorError => new OperatorError('not_found', message);
export const conflict = (message: string): OperatorError => new OperatorError('conflict', message);

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
