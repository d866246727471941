import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';
import { generateKeyText } from './keyring';

/**
 * Secrets of one installation that `npm start` makes itself when they are not configured: the
 * secret signing sandbox notifications and SECRETS_KEY. Each is generated once into DATA_DIR
 * (mode 0600) and read back on every later start, so no installation shares a published value.
 * A configured value always wins; a production start requires them configured (src/config).
 */
export const NOTIFY_SECRET_FILE = 'sandbox-notify-secret';
export const SECRETS_KEY_FILE = 'secrets-key';

/** The configuration with the secrets this process's parts need filled in (from DATA_DIR when not configured). */
export function withInstallationSecrets(config: Config): Config {
  const runs = (part: string) => (config.SERVICES as string[]).includes(part);
  const needsNotify = runs('api') || runs('sandbox');
  const needsKey = runs('api') || runs('worker');
  return {
    ...config,
    SANDBOX_NOTIFY_SECRET:
      config.SANDBOX_NOTIFY_SECRET ?? (needsNotify ? kept(config.dataDir, NOTIFY_SECRET_FILE, () => randomBytes(32).toString('base64url')) : undefined),
    SECRETS_KEY: config.SECRETS_KEY ?? (needsKey ? kept(config.dataDir, SECRETS_KEY_FILE, generateKeyText) : undefined),
  };
}

/**
 * The value in DATA_DIR/name, created when missing. Written to a temporary file first and linked
 * into place: processes starting together on one DATA_DIR all read the one value that won.
 */
function kept(dataDir: string, name: string, generate: () => string): string {
  const file = path.join(dataDir, name);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    fs.writeFileSync(tmp, `${generate()}\n`, { mode: 0o600, flag: 'wx' });
    try {
      fs.linkSync(tmp, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      fs.unlinkSync(tmp);
    }
  }
  const value = fs.readFileSync(file, 'utf8').trim();
  if (!value) throw new Error(`${file} is empty: delete it to generate a new one (only if nothing was encrypted with it)`);
  return value;
}
