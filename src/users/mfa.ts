import crypto from 'node:crypto';
import { createBase32Plugin, createCryptoPlugin } from '@otplib/core';
import { TOTP } from '@otplib/totp';

/**
 * TOTP (RFC 6238) through otplib's own TOTP package, with the settings every authenticator app
 * speaks: SHA-1, six digits, 30-second steps, Base32 secrets of 20 random bytes. One step of clock
 * drift either way is accepted.
 *
 * The `otplib` umbrella package wires in default plugins that are ES-module-only (@noble,
 * @scure); jest's CommonJS runtime cannot load those, and every test runs the whole app. So the
 * two plugins are built here on node:crypto and an RFC 4648 Base32 codec, and the TOTP algorithm,
 * time windows, replay guard and otpauth URI stay the library's.
 */
export const TOTP_ISSUER = 'In-Store Payments';
const TOLERANCE_SECONDS = 30;

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32_ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Uint8Array {
  const clean = text.replace(/=+$/, '').replace(/\s+/g, '').toUpperCase();
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const ch of clean) {
    const value = BASE32_ALPHABET.indexOf(ch);
    if (value < 0) throw new Error('not a Base32 string');
    buffer = ((buffer << 5) | value) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((buffer >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Uint8Array.from(out);
}

const nodeCrypto = createCryptoPlugin({
  name: 'node-crypto',
  hmac: (algorithm, key, data) => new Uint8Array(crypto.createHmac(algorithm, key).update(data).digest()),
  randomBytes: (length) => new Uint8Array(crypto.randomBytes(length)),
});
const base32 = createBase32Plugin({ name: 'rfc4648-base32', encode: base32Encode, decode: base32Decode });

const totp = new TOTP({ crypto: nodeCrypto, base32, issuer: TOTP_ISSUER });

export function newTotpSecret(): string {
  return totp.generateSecret(); // 20 random bytes, Base32
}

/** The otpauth:// URI an authenticator app scans (as a QR code) to enrol. */
export function otpauthUrl(secret: string, username: string): string {
  return totp.toURI({ secret, label: username, issuer: TOTP_ISSUER });
}

/**
 * Checks a code. `lastTimeStep` is the step of the last accepted code: that code, or an older one,
 * is refused even within its 30 seconds (RFC 6238 section 5.2). Returns the step to remember, or
 * undefined when the code is wrong.
 */
export async function checkTotp(secret: string, code: string, lastTimeStep: number | null): Promise<number | undefined> {
  try {
    const result = await totp.verify(code, {
      secret,
      epochTolerance: TOLERANCE_SECONDS,
      ...(lastTimeStep != null ? { afterTimeStep: lastTimeStep } : {}),
    });
    return result.valid ? result.timeStep : undefined;
  } catch {
    return undefined; // malformed code or secret: simply not valid
  }
}
