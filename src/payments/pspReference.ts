import crypto from 'node:crypto';

/**
 * The service's own stable reference of a payment: `PSP` and 16 characters of an alphabet without
 * look-alikes (0/O, 1/I), about 80 bits of randomness, so it is unique without coordination and
 * easy to read out over the phone. The database's unique index is the final guard.
 */
const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ'; // 32 symbols: one per 5 bits

export function newPspReference(): string {
  const bytes = crypto.randomBytes(16);
  let out = 'PSP';
  for (const b of bytes) out += ALPHABET[b & 31];
  return out;
}
