import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Secrets the service must read back (MFA secrets, webhook signing secrets) are stored sealed with
 * AES-256-GCM under SECRETS_KEY (docs/security.md, "Secrets at rest"). A sealed value reads
 * `enc:v1:<key id>:<base64url of iv, tag, ciphertext>`: the key id says which key opens it, so a
 * rotation can run while older values are still stored (SECRETS_KEY_PREVIOUS). A value without the
 * prefix is clear text written before encryption existed: it is read as is and sealed at start-up.
 */
export const SEALED_PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** What a sealed value is for, bound into it (GCM's additional data): one column's value cannot be moved to another. */
export type SecretPurpose = 'mfa' | 'webhook' | 'acquirer';

export class SecretsKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretsKeyError';
  }
}

interface Key {
  id: string;
  bytes: Buffer;
}

/** 32 bytes as 64 hex characters or as base64; anything else is refused with the variable's name. */
export function parseKey(text: string, variable: string): Key {
  const t = text.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(t) ? Buffer.from(t, 'base64') : undefined;
  if (!bytes || bytes.length !== 32) throw new SecretsKeyError(`${variable}: must be 32 bytes as 64 hex characters or base64 (openssl rand -hex 32)`);
  // Not a secret: a short digest that names the key in sealed values.
  const id = createHash('sha256').update('isp-secrets-key-id:').update(bytes).digest('hex').slice(0, 12);
  return { id, bytes };
}

export function generateKeyText(): string {
  return randomBytes(32).toString('hex');
}

/** The current key seals; it and the previous ones open. */
export class Keyring {
  private readonly byId = new Map<string, Key>();

  constructor(
    private readonly current: Key,
    previous: Key[] = [],
  ) {
    for (const k of [current, ...previous]) if (!this.byId.has(k.id)) this.byId.set(k.id, k);
  }

  static fromText(current: string, previous?: string): Keyring {
    const older = (previous ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s) => parseKey(s, 'SECRETS_KEY_PREVIOUS'));
    return new Keyring(parseKey(current, 'SECRETS_KEY'), older);
  }

  get currentId(): string {
    return this.current.id;
  }

  knows(keyId: string): boolean {
    return this.byId.has(keyId);
  }

  seal(plain: string, purpose: SecretPurpose): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.bytes, iv);
    cipher.setAAD(Buffer.from(purpose));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${SEALED_PREFIX}${this.current.id}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  /** The clear value; a clear-text (legacy) value as is. Throws SecretsKeyError for an unknown key or a value that does not authenticate. */
  open(stored: string, purpose: SecretPurpose): string {
    const keyId = sealedKeyId(stored);
    if (keyId === undefined) return stored;
    const key = this.byId.get(keyId);
    if (!key) throw new SecretsKeyError(`a stored secret is sealed under key id ${keyId}, which is neither SECRETS_KEY nor in SECRETS_KEY_PREVIOUS`);
    const raw = Buffer.from(stored.slice(SEALED_PREFIX.length + keyId.length + 1), 'base64url');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key.bytes, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(purpose));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretsKeyError(`a stored secret sealed under key id ${keyId} does not authenticate (damaged, or not a ${purpose} secret)`);
    }
  }

  /** True when the value is not sealed under the current key (clear text, or an older key). */
  needsSealing(stored: string): boolean {
    return sealedKeyId(stored) !== this.current.id;
  }
}

/** The key id of a sealed value; undefined for clear text. */
export function sealedKeyId(stored: string): string | undefined {
  if (!stored.startsWith(SEALED_PREFIX)) return undefined;
  const end = stored.indexOf(':', SEALED_PREFIX.length);
  return end > SEALED_PREFIX.length ? stored.slice(SEALED_PREFIX.length, end) : '';
}
