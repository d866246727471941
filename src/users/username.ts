import { z } from '../domain/zod';

/**
 * The one username rule, for the users API and the operator CLI's `user:create`: trimmed, 3 to 100
 * characters, no spaces or control characters. Uniqueness (whatever the case) is the database's.
 */
export const usernameSchema = z
  .string()
  .trim()
  .min(3, 'must be at least 3 characters')
  .max(100, 'must be at most 100 characters')
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\s\x00-\x1f\x7f-\x9f]+$/, 'must not contain spaces or control characters');
