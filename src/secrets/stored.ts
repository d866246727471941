import type { Db } from '../db/client';
import { Keyring, SEALED_PREFIX, SecretsKeyError, type SecretPurpose } from './keyring';

/**
 * The stored secrets, column by column: checked against the keyring at start-up and sealed under
 * the current key (at start-up for clear-text rows of databases made before encryption; by
 * `npm run admin -- secrets:reencrypt` after a rotation).
 */
interface Column {
  purpose: SecretPurpose;
  /** Distinct key ids of the sealed values, with one sealed value of each. */
  keyIds(db: Db): Promise<{ keyId: string; sample: string }[]>;
  /** Up to `take` rows whose value is not sealed under the key with this id. */
  outdated(db: Db, currentId: string, take: number): Promise<{ id: string | number; value: string }[]>;
  /** Writes the new value only if the row still holds the old one (another process may have sealed it). */
  replace(db: Db, id: string | number, from: string, to: string): Promise<number>;
}

const sealedUnder = (currentId: string) => ({ startsWith: `${SEALED_PREFIX}${currentId}:` });

const COLUMNS: Column[] = [
  {
    purpose: 'mfa',
    keyIds: (db) =>
      db.$queryRaw<
        { keyId: string; sample: string }[]
      >`SELECT DISTINCT ON (k) k AS "keyId", v AS sample FROM (SELECT split_part("mfaSecret", ':', 3) AS k, "mfaSecret" AS v FROM "User" WHERE "mfaSecret" LIKE 'enc:v1:%') s`,
    outdated: async (db, currentId, take) =>
      (
        await db.user.findMany({ where: { mfaSecret: { not: null }, NOT: { mfaSecret: sealedUnder(currentId) } }, select: { id: true, mfaSecret: true }, take })
      ).map((u) => ({
        id: u.id,
        value: u.mfaSecret!,
      })),
    replace: async (db, id, from, to) => (await db.user.updateMany({ where: { id: id as number, mfaSecret: from }, data: { mfaSecret: to } })).count,
  },
  {
    purpose: 'webhook',
    keyIds: (db) =>
      db.$queryRaw<
        { keyId: string; sample: string }[]
      >`SELECT DISTINCT ON (k) k AS "keyId", v AS sample FROM (SELECT split_part("secret", ':', 3) AS k, "secret" AS v FROM "WebhookConfig" WHERE "secret" LIKE 'enc:v1:%') s`,
    outdated: async (db, currentId, take) =>
      (await db.webhookConfig.findMany({ where: { NOT: { secret: sealedUnder(currentId) } }, select: { id: true, secret: true }, take })).map((c) => ({
        id: c.id,
        value: c.secret,
      })),
    replace: async (db, id, from, to) => (await db.webhookConfig.updateMany({ where: { id: id as string, secret: from }, data: { secret: to } })).count,
  },
  {
    purpose: 'acquirer',
    keyIds: (db) =>
      db.$queryRaw<
        { keyId: string; sample: string }[]
      >`SELECT DISTINCT ON (k) k AS "keyId", v AS sample FROM (SELECT split_part("credentials", ':', 3) AS k, "credentials" AS v FROM "AcquirerAccount" WHERE "credentials" LIKE 'enc:v1:%') s`,
    outdated: async (db, currentId, take) =>
      (await db.acquirerAccount.findMany({ where: { NOT: { credentials: sealedUnder(currentId) } }, select: { id: true, credentials: true }, take })).map(
        (a) => ({
          id: a.id,
          value: a.credentials,
        }),
      ),
    replace: async (db, id, from, to) =>
      (await db.acquirerAccount.updateMany({ where: { id: id as string, credentials: from }, data: { credentials: to } })).count,
  },
];

/**
 * Every stored secret can be opened with the keyring: otherwise a clear start-up error naming the
 * key ids, never a service that signs with garbage or refuses every MFA code.
 */
export async function checkStoredSecrets(db: Db, keyring: Keyring): Promise<void> {
  const unknown = new Set<string>();
  for (const column of COLUMNS) {
    for (const { keyId, sample } of await column.keyIds(db)) {
      if (!keyring.knows(keyId)) unknown.add(keyId);
      else keyring.open(sample, column.purpose); // throws SecretsKeyError when it does not authenticate
    }
  }
  if (unknown.size) {
    throw new SecretsKeyError(
      `SECRETS_KEY: stored secrets are sealed under key id ${[...unknown].join(', ')}, but SECRETS_KEY is key id ${keyring.currentId}` +
        ' and SECRETS_KEY_PREVIOUS has no such key. Start with the key they were sealed with (as SECRETS_KEY, or as SECRETS_KEY_PREVIOUS while rotating).',
    );
  }
}

/** Seals every stored secret that is clear text or under an older key with the current key; returns how many were re-sealed. */
export async function resealStoredSecrets(db: Db, keyring: Keyring): Promise<Record<SecretPurpose, number>> {
  const counts: Record<SecretPurpose, number> = { mfa: 0, webhook: 0, acquirer: 0 };
  for (const column of COLUMNS) {
    const failed = new Set<string | number>();
    for (;;) {
      const rows = (await column.outdated(db, keyring.currentId, 200)).filter((r) => !failed.has(r.id));
      if (rows.length === 0) break;
      for (const row of rows) {
        const sealed = keyring.seal(keyring.open(row.value, column.purpose), column.purpose);
        if ((await column.replace(db, row.id, row.value, sealed)) === 1) counts[column.purpose]++;
        else failed.add(row.id); // changed meanwhile: its new value was written sealed
      }
    }
  }
  return counts;
}
