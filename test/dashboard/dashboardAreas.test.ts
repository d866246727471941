import crypto from 'node:crypto';
import type { Merchant } from '../../src/generated/prisma/client';
import { createMerchantWithKey } from '../support/fixtures';
import { call, expectErrorShape } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { createMerchant, signedInUser } from '../users/helpers';
import { eventually, TestReceiver } from '../webhooks/receiver';

/**
 * The dashboard's stores and terminals (OPERATIONS, ADMIN) and webhooks (ADMIN) with a session
 * token (docs/dashboard.md, "The dashboard API"): the rules of the API-key endpoints from the same code, both modes, the
 * role table on every call, nothing of another business.
 */
let stack: TestStack;
let receiver: TestReceiver;
let merchant: Merchant;
let tokens: Record<'ADMIN' | 'OPERATIONS' | 'FINANCE' | 'USER', string>;

beforeAll(async () => {
  [stack, receiver] = await Promise.all([startTestStack(), new TestReceiver().start()]);
  merchant = await createMerchant(stack.db, 'Dashboard Areas Merchant');
  tokens = {
    ADMIN: (await signedInUser(stack.db, stack.apiUrl, merchant, ['ADMIN'])).token,
    OPERATIONS: (await signedInUser(stack.db, stack.apiUrl, merchant, ['OPERATIONS'])).token,
    FINANCE: (await signedInUser(stack.db, stack.apiUrl, merchant, ['FINANCE'])).token,
    USER: (await signedInUser(stack.db, stack.apiUrl, merchant, ['USER'])).token,
  };
});

afterAll(async () => {
  await Promise.all([stack?.stop(), receiver?.stop()]);
});

const STORES = '/api/dashboard/stores';
const store = { name: 'Harbour Kiosk', country: 'de', timezone: 'Europe/Berlin', defaultCurrency: 'eur' };

describe('stores and terminals', () => {
  it('OPERATIONS creates, lists, edits, deactivates and deletes a store and its terminal, in either mode', async () => {
    const token = tokens.OPERATIONS;
    const created = await call(stack.apiUrl, 'POST', STORES, { token, body: { ...store, mode: 'test' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Harbour Kiosk', country: 'DE', defaultCurrency: 'EUR', status: 'ACTIVE', mode: 'test' });
    const id = created.body.externalId as string;
    const live = await call(stack.apiUrl, 'POST', STORES, { token, body: { ...store, name: 'Harbour Cafe' } });
    expect(live.body.mode).toBe('live');

    const both = await call(stack.apiUrl, 'GET', `${STORES}?q=Harbour`, { token });
    expect(both.status).toBe(200);
    expect(both.body.content.map((s: { name: string }) => s.name)).toEqual(['Harbour Cafe', 'Harbour Kiosk']);
    const testOnly = await call(stack.apiUrl, 'GET', `${STORES}?mode=test`, { token });
    expect(testOnly.body.content.map((s: { externalId: string }) => s.externalId)).toEqual([id]);

    const edited = await call(stack.apiUrl, 'PUT', `${STORES}/${id}`, { token, body: { ...store, name: 'Harbour Kiosk North', status: 'INACTIVE' } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: 'Harbour Kiosk North', status: 'INACTIVE', mode: 'test' });

    const terminal = await call(stack.apiUrl, 'POST', `${STORES}/${id}/terminals`, {
      token,
      body: { label: 'Till 1', terminalType: 'POS', serialNumber: 'SN-1' },
    });
    expect(terminal.status).toBe(201);
    expect(terminal.body).toMatchObject({ label: 'Till 1', storeExternalId: id, ready: false, status: 'ACTIVE', mode: 'test' });
    const tid = terminal.body.externalId as string;
    const duplicate = await call(stack.apiUrl, 'POST', `${STORES}/${id}/terminals`, { token, body: { label: 'Till 2', serialNumber: 'sn-1' } });
    expect(expectErrorShape(duplicate, 409)).toContain('serialNumber');
    const off = await call(stack.apiUrl, 'PUT', `${STORES}/${id}/terminals/${tid}`, { token, body: { label: 'Till 1', status: 'INACTIVE' } });
    expect(off.body).toMatchObject({ status: 'INACTIVE', serialNumber: null });
    expect((await call(stack.apiUrl, 'GET', `${STORES}/${id}/terminals`, { token })).body.map((t: { externalId: string }) => t.externalId)).toEqual([tid]);

    expect((await call(stack.apiUrl, 'DELETE', `${STORES}/${id}/terminals/${tid}`, { token })).status).toBe(204);
    expect((await call(stack.apiUrl, 'DELETE', `${STORES}/${id}`, { token })).status).toBe(204);
    expect((await call(stack.apiUrl, 'GET', `${STORES}/${id}`, { token })).status).toBe(404);
  });

  it('refuses to delete a store that took payments recently with a 409 saying why, unless forced', async () => {
    const token = tokens.ADMIN;
    const created = await call(stack.apiUrl, 'POST', STORES, { token, body: store });
    const row = await stack.db.store.findFirstOrThrow({ where: { externalId: created.body.externalId } });
    const id = crypto.randomUUID();
    await stack.db.payment.create({
      data: {
        id,
        merchantId: merchant.id,
        storeId: row.id,
        storeExternalId: row.externalId,
        terminalExternalId: 'till-1',
        mode: 'live',
        pspReference: `psp-${id}`,
        status: 'CAPTURED',
        amount: '5.00',
        currency: 'EUR',
        acquirerName: 'sandbox',
        terminalTimeoutMinutes: '5',
        workflowId: `payment-${id}`,
        expiresAt: new Date(Date.now() + 600_000),
      },
    });
    const refused = await call(stack.apiUrl, 'DELETE', `${STORES}/${row.externalId}`, { token });
    expect(expectErrorShape(refused, 409)).toContain('took payments in the last');
    expect((await call(stack.apiUrl, 'GET', `${STORES}/${row.externalId}`, { token })).status).toBe(200);
    expect((await call(stack.apiUrl, 'DELETE', `${STORES}/${row.externalId}?force=true`, { token })).status).toBe(204);
  });

  it('bad input is a 400 naming the field; other roles 403; an API key 401; another business 404', async () => {
    const bad = await call(stack.apiUrl, 'POST', STORES, { token: tokens.ADMIN, body: { ...store, country: 'XX', mode: 'sandbox' } });
    const message = expectErrorShape(bad, 400);
    expect(message).toContain('country');
    for (const role of ['FINANCE', 'USER'] as const) {
      expect((await call(stack.apiUrl, 'GET', STORES, { token: tokens[role] })).status).toBe(403);
      expect((await call(stack.apiUrl, 'POST', STORES, { token: tokens[role], body: store })).status).toBe(403);
    }
    const { key, merchant: otherBusiness } = await createMerchantWithKey(stack.db);
    expect((await call(stack.apiUrl, 'GET', STORES, { key })).status).toBe(401);
    const foreign = await call(stack.apiUrl, 'POST', `/api/merchants/${otherBusiness.externalId}/stores`, { key, body: store });
    expect(foreign.status).toBe(201);
    expect((await call(stack.apiUrl, 'GET', `${STORES}/${foreign.body.externalId}`, { token: tokens.ADMIN })).status).toBe(404);
    expect((await call(stack.apiUrl, 'DELETE', `${STORES}/${foreign.body.externalId}?force=true`, { token: tokens.ADMIN })).status).toBe(404);
    const listed = await call(stack.apiUrl, 'GET', `${STORES}?size=100`, { token: tokens.ADMIN });
    expect(listed.body.content.map((s: { externalId: string }) => s.externalId)).not.toContain(foreign.body.externalId);
  });
});

describe('webhooks', () => {
  const CONFIGS = '/api/dashboard/webhooks/configs';

  it('ADMIN creates a destination (secret shown once), sends a test event, reads its attempts and redelivers it', async () => {
    const token = tokens.ADMIN;
    const created = await call(stack.apiUrl, 'POST', CONFIGS, { token, body: { url: receiver.url, description: 'till', mode: 'test' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ mode: 'test', description: 'till', secret: expect.stringMatching(/^whsec_/) });
    const id = created.body.id as string;
    const listed = await call(stack.apiUrl, 'GET', CONFIGS, { token });
    expect(listed.body.map((c: { id: string }) => c.id)).toContain(id);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secret);

    const edited = await call(stack.apiUrl, 'PUT', `${CONFIGS}/${id}`, { token, body: { eventTypes: ['PAYMENT_CAPTURED'] } });
    expect(edited.body).toMatchObject({ eventTypes: ['PAYMENT_CAPTURED'] });

    const sent = await call(stack.apiUrl, 'POST', `${CONFIGS}/${id}/test`, { token });
    expect(sent.status).toBe(202);
    const eventId = sent.body.eventId as string;
    await eventually(() => receiver.forEvent(eventId).length === 1, 'the test event');
    const history = await eventually(async () => {
      const h = await call(stack.apiUrl, 'GET', `${CONFIGS}/${id}/events`, { token });
      return h.body.content[0]?.status === 'DELIVERED' ? h.body : undefined;
    }, 'the delivery recorded');
    expect(history.content[0]).toMatchObject({ eventId, eventType: 'TEST', attempts: 1 });

    const again = await call(stack.apiUrl, 'POST', `/api/dashboard/webhooks/events/${eventId}/redeliver`, { token, body: { configId: id } });
    expect(again.status).toBe(202);
    await eventually(() => receiver.forEvent(eventId).length === 2, 'the redelivery');
    const attempts = await eventually(async () => {
      const a = await call(stack.apiUrl, 'GET', `/api/dashboard/webhooks/events/${eventId}/attempts`, { token });
      return a.body.length === 2 ? a.body : undefined;
    }, 'two attempts');
    expect(attempts.map((a: { attemptNumber: number; responseStatus: number }) => [a.attemptNumber, a.responseStatus])).toEqual([
      [1, 200],
      [2, 200],
    ]);

    const rotated = await call(stack.apiUrl, 'POST', `${CONFIGS}/${id}/regenerate-key`, { token });
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    expect((await call(stack.apiUrl, 'DELETE', `${CONFIGS}/${id}`, { token })).status).toBe(204);
    expect((await call(stack.apiUrl, 'GET', `${CONFIGS}/${id}`, { token })).status).toBe(404);
  });

  it('only ADMIN: OPERATIONS and FINANCE 403, an API key 401, another business 404', async () => {
    for (const role of ['OPERATIONS', 'FINANCE', 'USER'] as const) {
      expect((await call(stack.apiUrl, 'GET', CONFIGS, { token: tokens[role] })).status).toBe(403);
    }
    const { key } = await createMerchantWithKey(stack.db);
    expect((await call(stack.apiUrl, 'GET', CONFIGS, { key })).status).toBe(401);
    const foreign = await call(stack.apiUrl, 'POST', '/api/webhooks/configs', { key, body: { url: receiver.url } });
    expect(foreign.status).toBe(201);
    expect((await call(stack.apiUrl, 'GET', `${CONFIGS}/${foreign.body.id}`, { token: tokens.ADMIN })).status).toBe(404);
    expect((await call(stack.apiUrl, 'POST', `${CONFIGS}/${foreign.body.id}/test`, { token: tokens.ADMIN })).status).toBe(404);
    const bad = await call(stack.apiUrl, 'POST', CONFIGS, { token: tokens.ADMIN, body: { url: receiver.url, eventTypes: ['NOPE'] } });
    expect(expectErrorShape(bad, 400)).toContain('eventTypes');
  });
});
