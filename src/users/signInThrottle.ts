import crypto from 'node:crypto';
import type { Db } from '../db/client';
import { throttled } from '../domain/errors';
import type { Limit, LimitStore } from '../security/limits';

/**
 * Sign-in throttling (docs/security.md, "Sign-in"), held across API processes by the shared
 * counters. Every attempt takes its points BEFORE any user lookup or password hashing, so a flood
 * costs no argon2 work and an unknown username is throttled exactly like a known one:
 * - per address: SIGN_IN_ADDRESS_FAILURES failed attempts (any usernames), then the address waits
 *   SIGN_IN_LOCKOUT_SECONDS;
 * - per username and address: 5 wrong passwords in a row lock the account for that
 *   address for SIGN_IN_LOCKOUT_SECONDS;
 * - per username: after SIGN_IN_USERNAME_FAILURES failures in a row from any addresses, a short
 *   cool-down (SIGN_IN_USERNAME_COOLDOWN_SECONDS) for the addresses that have failed on it. An
 *   address with no failure on that username still signs in with the right password, so nobody can
 *   keep an account shut by failing on purpose.
 * A success forgets the username's failures (its own and the pair's) and gives the address its point back.
 */
export const SIGN_IN_THROTTLED = 'too many failed sign-ins; try again later';

/** Five wrong passwords in a row lock the account (docs/security.md, "Sign-in: throttling and lockout (decision)") (here: for the address that made them). */
export const MAX_FAILED_SIGN_INS = 5;

export interface SignInThrottleSettings {
  lockoutSeconds: number;
  addressFailures: number;
  usernameFailures: number;
  usernameCooldownSeconds: number;
}

const PAIR = 'signin_pair';
const USERNAME = 'signin_user';
const ADDRESS = 'signin_addr';

/** Usernames match whatever their case; hashed, keys stay short and the table holds no usernames. */
function usernameKey(username: string): string {
  return crypto.createHash('sha256').update(username.toLowerCase()).digest('hex').slice(0, 40);
}

/** What the sign-in reports back once it knows how the attempt ended. A failure reports nothing: its points stay. */
export interface SignInAttempt {
  /** Signed in: the username's failures in a row are forgotten. */
  succeeded(): Promise<void>;
  /** Neither success nor failure (the password was right and the second factor is still to come). */
  notCounted(): Promise<void>;
}

export class SignInThrottle {
  private readonly address: Limit;
  private readonly pair: Limit;
  private readonly username: Limit;

  constructor(store: LimitStore, s: SignInThrottleSettings) {
    this.address = store.limit({ prefix: ADDRESS, points: s.addressFailures, durationSeconds: s.lockoutSeconds, blockSeconds: s.lockoutSeconds });
    this.pair = store.limit({ prefix: PAIR, points: MAX_FAILED_SIGN_INS, durationSeconds: s.lockoutSeconds, blockSeconds: s.lockoutSeconds });
    this.username = store.limit({
      prefix: USERNAME,
      points: s.usernameFailures,
      durationSeconds: s.lockoutSeconds,
      blockSeconds: s.usernameCooldownSeconds,
    });
  }

  /** Takes the attempt's points, or throws `throttled` (429 with Retry-After) when a limit is reached. */
  async begin(username: string, address: string | undefined): Promise<SignInAttempt> {
    const user = usernameKey(username);
    const from = address || 'unknown';
    const pairKey = `${user}|${from}`;
    const byAddress = await this.address.take(from);
    if (byAddress.refused) throw throttled(SIGN_IN_THROTTLED, byAddress.retryAfterSeconds);
    const byPair = await this.pair.take(pairKey);
    if (byPair.refused) throw throttled(SIGN_IN_THROTTLED, byPair.retryAfterSeconds);
    const byUsername = await this.username.take(user);
    // The username's cool-down holds back only addresses that have failed on it before this attempt.
    if (byUsername.refused && byPair.consumed > 1) throw throttled(SIGN_IN_THROTTLED, byUsername.retryAfterSeconds);
    return {
      succeeded: async () => {
        await Promise.all([this.pair.reset(pairKey), this.username.reset(user), this.address.giveBack(from)]);
      },
      notCounted: async () => {
        await Promise.all([this.pair.giveBack(pairKey), this.username.giveBack(user), this.address.giveBack(from)]);
      },
    };
  }
}

/** An administrator's unlock: every address may try this username again at once. */
export async function forgetSignInFailures(db: Db, username: string): Promise<void> {
  const user = usernameKey(username);
  await db.rateLimit.deleteMany({ where: { OR: [{ key: `${USERNAME}:${user}` }, { key: { startsWith: `${PAIR}:${user}|` } }] } });
}
