import { z } from '../domain/zod';
import { mixedScripts } from './usernameScripts';

/**
 * The one username rule, for the users API and the operator CLI's `user:create`: normalised to
 * NFKC, trimmed, 3 to 100 characters, no spaces or control characters, letters of one script
 * (./usernameScripts.ts). Uniqueness (whatever the case) is the database's.
 *
 * NFKC (compatibility composition), not only NFC: it also folds the look-alike forms of
 * compatibility characters, so full-width "ａｄｍｉｎ" is stored as "admin" (and is then taken when
 * "admin" exists), "ﬁnance" as "finance", and a decomposed "é" as the composed one: two usernames
 * that look the same are the same username.
 */
export const usernameSchema = z
  .string()
  .normalize('NFKC')
  .trim()
  .min(3, 'must be at least 3 characters')
  .max(100, 'must be at most 100 characters')
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\s\x00-\x1f\x7f-\x9f]+$/, 'must not contain spaces or control characters')
  .superRefine((username, ctx) => {
    const mix = mixedScripts(username);
    if (mix) ctx.addIssue({ code: 'custom', message: `must not mix scripts (${mix}): letters of one script can pass for another's` });
  });
