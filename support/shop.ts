import crypto from 'node:crypto';
import { createDb } from '../src/db/client';
import { createApiKey, createMerchant, linkTerminal } from '../src/operator';
import { request } from './http';

/**
 * The business the chaos run and the benchmark sell for: a merchant and a live API key (operator
 * functions), one store and one terminal per cashier (the API), each terminal linked to its own
 * sandbox device (operator), and a webhook destination pointing at a loopback receiver (the API).
 */
export interface Till {
  terminalExternalId: string;
  deviceId: string;
}

export interface Shop {
  merchantExternalId: string;
  key: string;
  storeExternalId: string;
  tills: Till[];
  webhookSecret: string;
}

export async function openShop(opts: { name: string; databaseUrl: string; apiUrl: string; tills: number; receiverUrl: string }): Promise<Shop> {
  const tag = `${opts.name}-${crypto.randomBytes(3).toString('hex')}`;
  const db = createDb(opts.databaseUrl, { poolSize: 2 });
  try {
    const merchant = await createMerchant(db, { externalId: tag, name: `${opts.name} groceries` });
    const { key } = await createApiKey(db, { merchantExternalId: merchant.externalId, name: opts.name, mode: 'live' });
    const m = merchant.externalId;
    const store = await request('POST', `${opts.apiUrl}/api/merchants/${m}/stores`, {
      key,
      body: { name: `${opts.name} market`, country: 'DE', timezone: 'Europe/Berlin', defaultCurrency: 'EUR' },
    });
    if (store.status !== 201) throw new Error(`store: ${store.status} ${JSON.stringify(store.body)}`);
    const tills: Till[] = [];
    for (let i = 0; i < opts.tills; i++) {
      const t = await request('POST', `${opts.apiUrl}/api/merchants/${m}/stores/${store.body.externalId}/terminals`, {
        key,
        body: { label: `Till ${i + 1}`, terminalType: 'POS' },
      });
      if (t.status !== 201) throw new Error(`terminal: ${t.status} ${JSON.stringify(t.body)}`);
      const deviceId = `${tag}-dev-${i + 1}`;
      await linkTerminal(db, { merchantExternalId: m, storeExternalId: store.body.externalId, terminalExternalId: t.body.externalId, deviceId });
      tills.push({ terminalExternalId: t.body.externalId, deviceId });
    }
    const hook = await request('POST', `${opts.apiUrl}/api/webhooks/configs`, { key, body: { url: opts.receiverUrl, description: `${opts.name} receiver` } });
    if (hook.status !== 201) throw new Error(`webhook config: ${hook.status} ${JSON.stringify(hook.body)}`);
    return { merchantExternalId: m, key, storeExternalId: store.body.externalId, tills, webhookSecret: hook.body.secret };
  } finally {
    await db.$disconnect();
  }
}
