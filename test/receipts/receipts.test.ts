import { call, expectErrorShape } from '../support/http';
import { type TestStack, startTestStack } from '../support/stack';
import { createPayment, eventually, openShop, paymentAction, sim, statusBecomes, type Shop } from '../payments/helpers';
import { signedInUser } from '../users/helpers';
import { mailbox, mailsFor, receiptEvents } from './helpers';

/**
 * Receipts on the real stack (docs/receipts.md): the read as JSON and as a printable page, for the
 * API key and the dashboard's roles; the emails of the sale, each refund and a void, sent through
 * real SMTP to the sandbox's development mailbox; the dashboard's "Send receipt"; validation.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ REFUND_CONFIRM_TIMEOUT_SECONDS: '2', RECEIPT_RETRY_MAX_INTERVAL_SECONDS: '1' });
});
afterAll(async () => {
  await stack?.stop();
});

async function shopWithUsers() {
  const shop = await openShop(stack);
  await stack.db.merchant.update({ where: { id: shop.merchantId }, data: { name: 'Café <Zürich> & Söhne' } });
  await stack.db.store.update({
    where: { id: shop.storeId },
    data: { name: 'Bahnhofstrasse', addressLine1: 'Bahnhofstrasse 1', postalCode: '8001', city: 'Zürich', country: 'CH', timezone: 'Europe/Zurich' },
  });
  const merchant = await stack.db.merchant.findUniqueOrThrow({ where: { id: shop.merchantId } });
  const tokens: Record<string, string> = {};
  for (const role of ['ADMIN', 'FINANCE', 'OPERATIONS', 'COMPLIANCE', 'USER'] as const)
    tokens[role] = (await signedInUser(stack.db, stack.apiUrl, merchant, [role])).token;
  return { shop, tokens };
}

async function captured(shop: Shop, over: Record<string, unknown> = {}): Promise<{ id: string; pspReference: string }> {
  const created = await createPayment(stack, shop, over);
  expect(created.status).toBe(201);
  await sim(stack).customer(shop.deviceId, { action: 'pay', cardBrand: 'VISA', last4: '4242' });
  await statusBecomes(stack, created.body.id, 'CAPTURED');
  return { id: created.body.id, pspReference: created.body.pspReference };
}

const receipt = (shop: Shop, id: string, query = '') => call(stack.apiUrl, 'GET', `/api/in-store/payments/${id}/receipt${query}`, { key: shop.key });

it('reads the receipt as JSON and as a printable page; 409 before capture, 404 for another business, every dashboard role', async () => {
  const { shop, tokens } = await shopWithUsers();
  const open = await createPayment(stack, shop, { cashierId: 'anna' });
  expect(expectErrorShape(await receipt(shop, open.body.id), 409)).toMatch(/captured or authorised/);
  await sim(stack).customer(shop.deviceId, { action: 'pay', cardBrand: 'VISA', last4: '4242' });
  const p = await statusBecomes(stack, open.body.id, 'CAPTURED');

  const read = await receipt(shop, p.id);
  expect(read.status).toBe(200);
  expect(read.body).toEqual({
    paymentId: p.id,
    merchantName: 'Café <Zürich> & Söhne',
    storeName: 'Bahnhofstrasse',
    storeAddress: 'Bahnhofstrasse 1, 8001 Zürich, CH',
    terminalLabel: 'Till 1',
    reference: p.reference,
    pspReference: p.pspReference,
    status: 'CAPTURED',
    paymentMethod: 'CARD',
    cardBrand: 'VISA',
    last4: '4242',
    amount: 12.5,
    tipAmount: 0,
    totalAmount: 12.5,
    refundedAmount: 0,
    currency: 'EUR',
    cashierId: 'anna',
    occurredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0[12]:00$/),
    lines: expect.any(Array),
  });
  // The store's zone: the same instant as capturedAt, written with Zurich's offset.
  expect(new Date(read.body.occurredAt).getTime()).toBe(Math.floor(p.capturedAt!.getTime() / 1000) * 1000);
  const lines: string[] = read.body.lines;
  for (const l of lines) expect([...l].length).toBeLessThanOrEqual(48);
  expect(lines.join('\n')).toContain('VISA **** 4242');
  expect(lines.find((l) => l.startsWith('TOTAL'))).toMatch(/€12\.50$/);
  expect(lines.find((l) => l.startsWith('Cashier'))).toMatch(/anna$/);

  const page = await receipt(shop, p.id, '?format=html');
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
  expect(page.body).not.toMatch(/<script/i);
  expect(page.body).toContain('Café &lt;Zürich&gt; &amp; Söhne');
  expect(page.body).not.toContain('<Zürich>');
  expectErrorShape(await receipt(shop, p.id, '?format=pdf'), 400);

  // Another business's key: 404, as for any of its payments.
  const other = await openShop(stack);
  expectErrorShape(await call(stack.apiUrl, 'GET', `/api/in-store/payments/${p.id}/receipt`, { key: other.key }), 404);
  // Every role that sees payments reads it on the dashboard.
  for (const token of Object.values(tokens)) {
    const viaDashboard = await call(stack.apiUrl, 'GET', `/api/dashboard/payments/${p.id}/receipt`, { token });
    expect(viaDashboard.status).toBe(200);
    expect(viaDashboard.body).toEqual(read.body);
  }
});

it('emails one receipt per event: the sale, each refund, a void; plain text and HTML, the business as sender, last four only, RECEIPT_SENT', async () => {
  const { shop, tokens } = await shopWithUsers();
  const to = `jane.${Date.now()}@example.com`;
  const sale = await captured(shop, { customerEmail: to, amount: 30, reference: 'TABLE-SEVEN' });
  const [first] = await mailsFor(stack, to, sale.pspReference, 1);
  expect(first).toMatchObject({
    to,
    subject: expect.stringContaining('Your receipt from Café <Zürich> & Söhne'),
    from: expect.stringContaining('Café <Zürich> & Söhne'),
  });
  expect(first!.text).toContain('VISA **** 4242');
  expect(first!.text).toMatch(/TOTAL\s+€30\.00/);
  expect(first!.html).toContain('Café &lt;Zürich&gt; &amp; Söhne');
  expect(first!.html).not.toMatch(/<script/i);
  expect(first!.messageId).toBe(`<receipt-${sale.id}-captured@localhost>`);
  // No card number beyond the last four: no run of more than four digits that is not an amount or a reference.
  expect(`${first!.text}${first!.html}`.replaceAll(sale.pspReference, '')).not.toMatch(/\d{5,}/);

  // Two refunds: one email each, the receipt as it stands after each.
  for (const amount of [10, 5]) {
    const r = await call(stack.apiUrl, 'POST', `/api/dashboard/payments/${sale.id}/refunds`, { token: tokens.FINANCE, body: { amount } });
    expect(r.status).toBe(201);
  }
  const afterRefunds = await mailsFor(stack, to, sale.pspReference, 3);
  expect(afterRefunds.map((m) => m.subject.split(' from ')[0])).toEqual(['Your receipt', 'Refund receipt', 'Refund receipt']);
  expect(afterRefunds[2]!.text).toMatch(/Refunded\s+-€15\.00/);

  // A void: one email.
  const voided = await captured(shop, { customerEmail: to });
  expect((await paymentAction(stack, shop, voided.id, 'void')).body).toMatchObject({ status: 'CANCELLED' });
  const voidMails = await mailsFor(stack, to, voided.pspReference, 2);
  expect(voidMails.map((m) => m.subject.split(' from ')[0])).toEqual(['Your receipt', 'Payment cancelled']);
  expect(voidMails[1]!.text).toContain('VOIDED');

  // Events: one RECEIPT_SENT per email, the address masked.
  const sent = await eventually(async () => {
    const events = await receiptEvents(stack, tokens.ADMIN!, sale.id);
    return events.length >= 3 ? events : undefined;
  });
  expect(sent.map((e) => e.eventType)).toEqual(['RECEIPT_SENT', 'RECEIPT_SENT', 'RECEIPT_SENT']);
  const stored = await stack.db.webhookEvent.findMany({ where: { paymentId: sale.id, eventType: 'RECEIPT_SENT' } });
  expect(stored.map((e) => JSON.parse(e.body!).data.receipt).sort((a, b) => a.event.localeCompare(b.event))).toEqual([
    { paymentId: sale.id, to: 'j***@example.com', event: 'CAPTURED' },
    { paymentId: sale.id, to: 'j***@example.com', event: 'REFUNDED' },
    { paymentId: sale.id, to: 'j***@example.com', event: 'REFUNDED' },
  ]);
  // Nothing more arrives later: still one per event.
  await new Promise((r) => setTimeout(r, 1500));
  expect((await mailbox(stack).read()).filter((m) => m.to === to)).toHaveLength(5);

  // A payment without customerEmail gets no email.
  const silent = await captured(shop);
  await new Promise((r) => setTimeout(r, 1000));
  expect((await mailbox(stack).read()).some((m) => m.subject.includes(silent.pspReference))).toBe(false);
});

it('sends a copy from the dashboard (ADMIN, FINANCE, OPERATIONS), audited; other roles 403; the address validated', async () => {
  const { shop, tokens } = await shopWithUsers();
  const sale = await captured(shop);
  const send = (token: string, body: unknown) => call(stack.apiUrl, 'POST', `/api/dashboard/payments/${sale.id}/receipt/send`, { token, body });
  for (const role of ['COMPLIANCE', 'USER']) expectErrorShape(await send(tokens[role]!, { email: 'x@example.com' }), 403);
  expect(expectErrorShape(await send(tokens.ADMIN!, { email: 'not an address' }), 400)).toMatch(/email/);
  const to = `copy.${Date.now()}@example.com`;
  for (const role of ['ADMIN', 'FINANCE', 'OPERATIONS']) {
    const answer = await send(tokens[role]!, { email: to });
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({ to: 'c***@example.com', status: 'QUEUED' });
  }
  const copies = await mailsFor(stack, to, sale.pspReference, 3);
  expect(copies.every((m) => m.subject.startsWith('Your receipt from'))).toBe(true);
  const audit = await stack.db.auditLog.findMany({ where: { merchantId: shop.merchantId, action: 'RECEIPT_SEND_REQUESTED' } });
  expect(audit).toHaveLength(3);
  expect(JSON.stringify(audit.map((a) => a.details))).not.toContain(to);
  // Before capture: 409.
  const open = await createPayment(stack, shop);
  expectErrorShape(await call(stack.apiUrl, 'POST', `/api/dashboard/payments/${open.body.id}/receipt/send`, { token: tokens.ADMIN, body: { email: to } }), 409);
});

it('refuses a payment whose customerEmail is not an address: 400 naming customerEmail, nothing created', async () => {
  const shop = await openShop(stack);
  const before = await stack.db.payment.count({ where: { merchantId: shop.merchantId } });
  const bad = await createPayment(stack, shop, { customerEmail: 'jane@' });
  expect(expectErrorShape(bad, 400)).toMatch(/customerEmail/);
  expect(await stack.db.payment.count({ where: { merchantId: shop.merchantId } })).toBe(before);
});
