import { hash, verify } from '@node-rs/argon2';

/** Passwords: argon2id (OWASP's first choice), never stored or logged in clear. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: 2 /* Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 });
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** The password rule (docs/users-and-keys.md, "Users"): at least 12 characters, containing both letters and digits. Returns the reason, or undefined. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < 12) return 'must be at least 12 characters';
  if (!/\p{L}/u.test(password) || !/\p{Nd}/u.test(password)) return 'must contain both letters and digits';
  return undefined;
}
