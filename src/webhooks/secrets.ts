import { randomBase62 } from '../auth/apiKeys';

/**
 * A destination's signing secret: `whsec_` plus 40 random base62 characters (about 238 bits).
 * Stored recoverable, since every delivery must be signed with it; shown only in the create and
 * regenerate-key responses and never logged.
 */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBase62(40);
}
