import type { Config } from '../config';
import type { Db } from '../db/client';

/**
 * A production start with the sandbox acquirer while live API keys exist would take "live"
 * payments that no card network ever sees: refused unless SANDBOX_ALLOW_LIVE_KEYS says this is
 * wanted (a demonstration installation, say).
 */
export async function refuseSandboxWithLiveKeys(config: Config, db: Db): Promise<void> {
  if (config.NODE_ENV !== 'production' || config.ACQUIRER !== 'sandbox' || config.SANDBOX_ALLOW_LIVE_KEYS) return;
  const live = await db.apiKey.count({ where: { mode: 'live', revokedAt: null } });
  if (live === 0) return;
  throw new Error(
    `ACQUIRER=sandbox in production while ${live} live API key(s) exist: live payments would go to the sandbox. ` +
      'Use a real acquirer, revoke the live keys, or set SANDBOX_ALLOW_LIVE_KEYS=true to start anyway',
  );
}
