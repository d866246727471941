import { nameSchema } from '../domain/names';

/**
 * The one username rule, for the users API and the operator CLI's `user:create`: the name rule of
 * src/domain/names.ts (NFKC, no control, invisible or direction-changing characters, letters of one
 * script) with no spaces at all, 3 to 100 characters. Uniqueness (whatever the case) is the
 * database's.
 */
export const usernameSchema = nameSchema({ min: 3, max: 100, spaces: false });
