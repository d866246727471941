/**
 * Why the domain refused or could not do something. Domain code throws these and imports nothing
 * of its callers: the HTTP layer answers each kind with the status of STATUS_OF_KIND below (applied
 * in src/http/errors.ts), the operator CLI with an exit code (src/cli/output.ts). See
 * docs/architecture.md.
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
  /** Too many attempts: the caller must wait before trying again (sign-in throttling). */
  | 'throttled'
  /** A part we depend on did not answer; the same request may succeed later. */
  | 'unavailable';

/**
 * The HTTP status each kind answers with: the one place this mapping lives. It sits beside the
 * kinds (as plain numbers, no HTTP code) so that an error also reports its `status` where no HTTP
 * layer is involved, as the delete guard's unit test expects.
 */
export const STATUS_OF_KIND: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  throttled: 429,
  unavailable: 503,
};

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** For `unavailable` and `throttled`: when a retry is worth trying, in whole seconds (HTTP Retry-After). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  /** The HTTP status of this kind (STATUS_OF_KIND). */
  get status(): number {
    return STATUS_OF_KIND[this.kind];
  }
}

export const invalid = (message: string): DomainError => new DomainError('invalid', message);
export const unauthenticated = (message = 'missing or invalid credentials'): DomainError => new DomainError('unauthenticated', message);
export const forbidden = (message = 'not permitted for these credentials'): DomainError => new DomainError('forbidden', message);
/** `what` names the thing ('store', `user ${id}`); `where` optionally narrows it ("for merchant 'm1'"). */
export const notFound = (what: string, where?: string): DomainError => new DomainError('not_found', `${what} not found${where ? ` ${where}` : ''}`);
export const conflict = (message: string): DomainError => new DomainError('conflict', message);
export const throttled = (message: string, retryAfterSeconds: number): DomainError => new DomainError('throttled', message, retryAfterSeconds);
export const unavailable = (message: string, retryAfterSeconds?: number): DomainError => new DomainError('unavailable', message, retryAfterSeconds);
