/**
 * Why the domain refused or could not do something. Domain code throws these and knows nothing of
 * its callers: the HTTP layer maps each kind to a status in one place (src/http/errors.ts), the
 * operator CLI maps it to an exit code (src/cli/output.ts). See docs/architecture.md.
 */
export type DomainErrorKind =
  /** The input breaks a rule; the message names the field and the reason. */
  | 'invalid'
  /** The caller could not be identified (wrong credentials, missing second factor). */
  | 'unauthenticated'
  /** The caller is known but not permitted to do this. */
  | 'forbidden'
  /** No such thing, or not the caller's to see. */
  | 'not_found'
  /** The current state does not allow it. */
  | 'conflict'
  /** A part we depend on did not answer; the same request may succeed later. */
  | 'unavailable';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** For `unavailable`: when a retry is worth trying, in whole seconds (HTTP Retry-After). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const invalid = (message: string): DomainError => new DomainError('invalid', message);
export const unauthenticated = (message = 'missing or invalid credentials'): DomainError => new DomainError('unauthenticated', message);
export const forbidden = (message = 'not permitted for these credentials'): DomainError => new DomainError('forbidden', message);
/** `what` names the thing ('store', `user ${id}`); `where` optionally narrows it ("for merchant 'm1'"). */
export const notFound = (what: string, where?: string): DomainError => new DomainError('not_found', `${what} not found${where ? ` ${where}` : ''}`);
export const conflict = (message: string): DomainError => new DomainError('conflict', message);
export const unavailable = (message: string, retryAfterSeconds?: number): DomainError => new DomainError('unavailable', message, retryAfterSeconds);
