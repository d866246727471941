import type { Keyring, SecretPurpose } from './keyring';

/**
 * The process's keyring, set once at start (src/service.ts, or the operator command that needs it)
 * so that the domain code reading and writing secrets needs no extra plumbing.
 */
let active: Keyring | undefined;

export function useKeyring(keyring: Keyring): void {
  active = keyring;
}

function keyring(): Keyring {
  if (!active) throw new Error('SECRETS_KEY is not loaded in this process (start the service, or call useKeyring first)');
  return active;
}

export const sealSecret = (plain: string, purpose: SecretPurpose): string => keyring().seal(plain, purpose);
export const openSecret = (stored: string, purpose: SecretPurpose): string => keyring().open(stored, purpose);
