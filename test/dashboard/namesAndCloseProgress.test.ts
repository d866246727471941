import crypto from 'node:crypto';
import type { Merchant, Store } from '../../src/generated/prisma/client';
import { uniqueId } from '../support/fixtures';
import { call } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { createMerchant, createUser, signedInUser } from '../users/helpers';
import { adminOf, sandboxAccount } from '../acquirerAccounts/helpers';

/**
 * What the dashboard shows instead of ids (issue 31): the names read (stores, terminals, users)
 * for every role, and FINANCE's picker of the stores with something to settle, with the close in
 * progress counted (settled of total), without the Stores area.
 */
let stack: TestStack;
let merchant: Merchant;
let other: Merchant;
let tokens: Record<'USER' | 'FINANCE' | 'OPERATIONS', string>;
let mainStreet: Store;
let harbour: Store;
let quiet: Store;

const store = (m: Merchant, name: string) =>
  stack.db.store.create({ data: { merchantId: m.id, externalId: uniqueId('store'), name, country: 'DE', timezone: 'Europe/Berlin' } });

async function captured(s: Store) {
  const id = crypto.randomUUID();
  await stack.db.payment.create({
    data: {
      id,
      merchantId: s.merchantId,
      storeId: s.id,
      storeExternalId: s.externalId,
      terminalExternalId: 'till-1',
      mode: s.mode,
      pspReference: uniqueId('psp'),
      acquirerRef: uniqueId('acq'),
      status: 'CAPTURED',
      amount: '10.00',
      currency: 'EUR',
      acquirerName: 'sandbox',
      terminalTimeoutMinutes: '5',
      workflowId: `payment-${id}`,
      expiresAt: new Date(Date.now() + 600_000),
      capturedAt: new Date(),
    },
  });
  return id;
}

beforeAll(async () => {
  stack = await startTestStack();
  merchant = await createMerchant(stack.db, 'Names Test Merchant');
  other = await createMerchant(stack.db, 'Another Business');
  tokens = {
    USER: (await signedInUser(stack.db, stack.apiUrl, merchant, ['USER'])).token,
    FINANCE: (await signedInUser(stack.db, stack.apiUrl, merchant, ['FINANCE'])).token,
    OPERATIONS: (await signedInUser(stack.db, stack.apiUrl, merchant, ['OPERATIONS'])).token,
  };
  mainStreet = await store(merchant, 'Main Street');
  harbour = await store(merchant, 'Harbour');
  quiet = await store(merchant, 'Quiet Corner');
  await store(other, 'Elsewhere');
  await stack.db.terminal.create({ data: { merchantId: merchant.id, storeId: mainStreet.id, externalId: uniqueId('term'), label: 'Till 1' } });
  await createUser(stack.db, merchant, ['FINANCE'], { username: uniqueId('maria'), displayName: 'Maria Rossi' });
});

afterAll(async () => {
  await stack?.stop();
});

describe('GET /api/dashboard/names', () => {
  it("gives every role the business's stores with their terminals, and users' display names; nothing of another business", async () => {
    const res = await call(stack.apiUrl, 'GET', '/api/dashboard/names', { token: tokens.USER });
    expect(res.status).toBe(200);
    expect(res.body.stores.map((s: { name: string }) => s.name)).toEqual(['Harbour', 'Main Street', 'Quiet Corner']);
    const main = res.body.stores.find((s: { externalId: string }) => s.externalId === mainStreet.externalId);
    expect(main).toMatchObject({ name: 'Main Street', mode: 'live', status: 'ACTIVE', terminals: [{ label: 'Till 1', status: 'ACTIVE' }] });
    expect(res.body.users).toEqual(expect.arrayContaining([expect.objectContaining({ displayName: 'Maria Rossi' })]));
  });

  it("names the business's acquirer accounts for FINANCE (no MID, no credential): payouts and balances read by account name", async () => {
    const accountId = await sandboxAccount(await adminOf(stack, merchant), 'test', 'MID-NAMES-1', 'Harbour acquiring');
    const res = await call(stack.apiUrl, 'GET', '/api/dashboard/names', { token: tokens.FINANCE });
    expect(res.status).toBe(200);
    expect(res.body.accounts).toEqual([{ id: accountId, name: 'Harbour acquiring', acquirer: 'sandbox', mode: 'test' }]);
    expect(JSON.stringify(res.body)).not.toContain('MID-NAMES-1');
  });

  it('does not name a removed account (issue 37); a deactivated one stays named', async () => {
    const admin = await adminOf(stack, merchant);
    const removed = await sandboxAccount(admin, 'test', 'MID-NAMES-GONE', 'Closed acquiring');
    const paused = await sandboxAccount(admin, 'test', 'MID-NAMES-PAUSED', 'Paused acquiring');
    expect((await admin.deleteAccount(removed)).status).toBe(204);
    expect((await admin.updateAccount(paused, { status: 'INACTIVE' })).status).toBe(200);
    const res = await call(stack.apiUrl, 'GET', '/api/dashboard/names', { token: tokens.FINANCE });
    expect(res.status).toBe(200);
    const ids = res.body.accounts.map((a: { id: string }) => a.id);
    expect(ids).not.toContain(removed);
    expect(ids).toContain(paused);
    expect(JSON.stringify(res.body)).not.toContain('Closed acquiring');
  });

  it('refuses an API key', async () => {
    const res = await call(stack.apiUrl, 'GET', '/api/dashboard/names', { key: 'isp_test_nope' });
    expect(res.status).toBe(401);
  });
});

describe('GET /api/dashboard/settlement-stores', () => {
  it('lists, by name, only the stores a close would settle something in', async () => {
    await captured(mainStreet);
    await captured(mainStreet);
    const res = await call(stack.apiUrl, 'GET', '/api/dashboard/settlement-stores', { token: tokens.FINANCE });
    expect(res.status).toBe(200);
    expect(res.body.stores).toEqual([{ externalId: mainStreet.externalId, name: 'Main Street', mode: 'live', payments: 2, refunds: 0, closing: null }]);
  });

  it("counts a close in progress: the batch's payments settled of total", async () => {
    const batchId = crypto.randomUUID();
    await stack.db.settlementBatch.create({
      data: {
        id: batchId,
        merchantId: merchant.id,
        storeId: harbour.id,
        storeExternalId: harbour.externalId,
        date: '2026-11-26',
        timezone: 'Europe/Berlin',
        status: 'SETTLING',
        closedAt: new Date(),
        closedBy: 'someone',
        until: new Date(),
      },
    });
    const now = new Date();
    for (const applied of [true, false, false]) {
      const paymentId = await captured(harbour);
      await stack.db.settlementLine.create({
        data: { batchId, type: 'PAYMENT', paymentId, amount: '10', currency: 'EUR', occurredAt: now, reported: true, appliedAt: applied ? now : null },
      });
    }
    const res = await call(stack.apiUrl, 'GET', '/api/dashboard/settlement-stores', { token: tokens.FINANCE });
    const shown = res.body.stores.find((s: { externalId: string }) => s.externalId === harbour.externalId);
    expect(shown).toMatchObject({ name: 'Harbour', payments: 0, closing: { batchId, status: 'SETTLING', total: 3, settled: 1 } });
    expect(res.body.stores.map((s: { externalId: string }) => s.externalId)).not.toContain(quiet.externalId);
  });

  it('is for FINANCE and ADMIN only', async () => {
    expect((await call(stack.apiUrl, 'GET', '/api/dashboard/settlement-stores', { token: tokens.USER })).status).toBe(403);
    expect((await call(stack.apiUrl, 'GET', '/api/dashboard/settlement-stores', { token: tokens.OPERATIONS })).status).toBe(403);
  });
});
