/**
 * The business the browser tests work in, made the way an operator and a merchant make it: the
 * operator functions create the merchant, one user per role and a test API key, and link the
 * terminal; the API (with that key) creates the store, the terminal and a webhook destination.
 * Run with tsx by the global set-up; prints one JSON object.
 */
import crypto from 'node:crypto';
import { createDb } from '../src/db/client';
import { createApiKey, createMerchant, createUser, linkTerminal } from '../src/operator';
import { request } from '../support/http';

export const ROLE_USERS = ['ADMIN', 'FINANCE', 'OPERATIONS', 'COMPLIANCE', 'USER'] as const;

async function main(): Promise<void> {
  const [databaseUrl, apiUrl, receiverUrl] = process.argv.slice(2) as [string, string, string];
  const tag = crypto.randomBytes(3).toString('hex');
  const password = `Dashboard-${crypto.randomBytes(6).toString('hex')}1`;
  const db = createDb(databaseUrl, { poolSize: 2 });
  try {
    const merchant = await createMerchant(db, { externalId: `bakery-${tag}`, name: 'Corner Bakery' });
    const m = merchant.externalId;
    const users: Record<string, string> = {};
    for (const role of ROLE_USERS) {
      const username = `${role.toLowerCase()}-${tag}`;
      await createUser(db, { merchantExternalId: m, username, password, roles: [role] });
      users[role] = username;
    }
    const mfaUser = `mfa-${tag}`;
    await createUser(db, { merchantExternalId: m, username: mfaUser, password, roles: ['USER'] });
    const { key } = await createApiKey(db, { merchantExternalId: m, name: 'till software', mode: 'test' });
    const store = await request('POST', `${apiUrl}/api/merchants/${m}/stores`, {
      key,
      body: { name: 'Main Street', country: 'DE', timezone: 'Europe/Berlin', defaultCurrency: 'EUR' },
    });
    if (store.status !== 201) throw new Error(`store: ${store.status} ${JSON.stringify(store.body)}`);
    const terminal = await request('POST', `${apiUrl}/api/merchants/${m}/stores/${store.body.externalId}/terminals`, {
      key,
      body: { label: 'Till 1', terminalType: 'POS' },
    });
    if (terminal.status !== 201) throw new Error(`terminal: ${terminal.status} ${JSON.stringify(terminal.body)}`);
    const deviceId = `e2e-${tag}-till-1`;
    await linkTerminal(db, { merchantExternalId: m, storeExternalId: store.body.externalId, terminalExternalId: terminal.body.externalId, deviceId });
    const hook = await request('POST', `${apiUrl}/api/webhooks/configs`, { key, body: { url: receiverUrl, description: 'till receiver' } });
    if (hook.status !== 201) throw new Error(`webhook: ${hook.status} ${JSON.stringify(hook.body)}`);
    process.stdout.write(
      `${JSON.stringify({ merchantExternalId: m, merchantName: 'Corner Bakery', password, users, mfaUser, key, storeExternalId: store.body.externalId, terminalExternalId: terminal.body.externalId, deviceId })}\n`,
    );
  } finally {
    await db.$disconnect();
  }
}

main().catch((err) => {
  process.stderr.write(`seed failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
