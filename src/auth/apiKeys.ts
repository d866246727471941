import crypto from 'node:crypto';

/** API keys: `isp_live_` or `isp_test_` plus 40 random base62 characters; only a hash is stored. */
export const KEY_PREFIXES = { live: 'isp_live_', test: 'isp_test_' } as const;
export type KeyMode = keyof typeof KEY_PREFIXES;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of crypto.randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62]; // 248 = 4*62: no modulo bias
    }
  }
  return out;
}

export function generateApiKey(mode: KeyMode): { key: string; hash: string; prefix: string } {
  const key = KEY_PREFIXES[mode] + randomBase62(40);
  return { key, hash: hashApiKey(key), prefix: key.slice(0, KEY_PREFIXES[mode].length + 4) };
}

/**
 * Keys carry 238 bits of randomness, so a fast hash is safe; lookup is by hash, and the final
 * equality check is constant-time.
 */
export function hashApiKey(key: string): string {
  return crypto.createHash('sha256').update(key, 'utf8').digest('hex');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  return ab.length === bb.length && crypto.timingSafeEqual(ab, bb);
}

export function keyModeOf(key: string): KeyMode | undefined {
  if (key.startsWith(KEY_PREFIXES.live)) return 'live';
  if (key.startsWith(KEY_PREFIXES.test)) return 'test';
  return undefined;
}
