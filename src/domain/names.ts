import { z } from './zod';
import { mixedScripts } from './nameScripts';

/**
 * The one rule for a name people read as someone's or something's identity: usernames
 * (src/users/username.ts) and acquirer account names (src/acquirerAccounts/schemas.ts); see
 * docs/security.md, "Usernames: NFKC, and one script" and "Rules added in the security round
 * (issue 37)". A name is normalised to NFKC, then trimmed, and must hold:
 * - no control characters, and no invisible or direction-changing ones (Unicode format
 *   characters: right-to-left overrides and isolates, zero-width spaces and joiners, the byte-order
 *   mark, the soft hyphen; private-use and surrogate code points; line and paragraph separators):
 *   "Stripe\u202eED" reads as "StripeDE" reversed, "St\u200bripe" as "Stripe";
 * - letters of one script, or of a mix a language writes with (./nameScripts.ts);
 * - spaces: none at all (usernames), or single spaces between words (names of things).
 *
 * NFKC (compatibility composition), not only NFC: it also folds the look-alike forms of
 * compatibility characters, so full-width "ａｄｍｉｎ" is stored as "admin" (and is then taken when
 * "admin" exists), "ﬁnance" as "finance", a no-break or ideographic space as a space, and a
 * decomposed "é" as the composed one: two names that look the same are the same name.
 * Uniqueness (whatever the case) is the owner's check: the users table, an account's business.
 */
export interface NameRule {
  min: number;
  max: number;
  /** false: no white space at all (usernames); true: single spaces between words. */
  spaces: boolean;
  /** The message for a value that is not a string; left out: zod's own ("is required" when missing). */
  typeError?: string;
}

const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}\p{Zl}\p{Zp}]/u;
const codePoint = (ch: string): string => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** Why a name (already NFKC and trimmed) breaks the rule, or null. */
export function nameProblem(name: string, spaces: boolean): string | null {
  // eslint-disable-next-line no-control-regex
  if (!spaces && /[\s\x00-\x1f\x7f-\x9f]/.test(name)) return 'must not contain spaces or control characters';
  const hidden = INVISIBLE.exec(name)?.[0];
  if (hidden !== undefined) return `must not contain control, invisible or direction-changing characters (${codePoint(hidden)})`;
  if (spaces && /[^\S ]| {2}/.test(name)) return 'must not contain white space other than single spaces between words';
  const mix = mixedScripts(name);
  if (mix) return `must not mix scripts (${mix}): letters of one script can pass for another's`;
  return null;
}

/** A zod schema of the rule: the parsed value is the stored form (NFKC, trimmed). */
export function nameSchema(rule: NameRule) {
  const base = rule.typeError === undefined ? z.string() : z.string({ error: rule.typeError });
  return base
    .normalize('NFKC')
    .trim()
    .min(rule.min, rule.min === 1 ? 'must not be empty' : `must be at least ${rule.min} characters`)
    .max(rule.max, `must be at most ${rule.max} characters`)
    .superRefine((name, ctx) => {
      const problem = nameProblem(name, rule.spaces);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });
}
