import { signSandboxBody } from '../../src/acquirer/sandbox/notify';
import { call, expectErrorShape } from '../support/http';
import { type TestStack, startTestStack } from '../support/stack';
import { eventually, paymentAction, sim, sleep, workflowHandle } from '../payments/helpers';
import { callPaymentWorkflow } from '../../src/payments/workflowCalls';
import type { RefundRequestInput } from '../../core/payment/messages';
import { signedInUser } from '../users/helpers';
import { answer, capturedPayment, desk, disputeBecomes, disputeEvents, disputeOf, openAtSandbox, refund, writeStatement } from './helpers';

/**
 * Disputes (docs/disputes.md) on the real stack: the sandbox opens them and decides them, the dispute
 * workflow records, reminds, expires and answers, and the payment refuses refunds and voids while
 * one is open. DISPUTE_REMINDER_HOURS is 3.6 s here, so a dispute due in 7.2 s shows both timers.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ DISPUTE_REMINDER_HOURS: '0.001' });
});
afterAll(async () => {
  await stack?.stop();
});

const payment = (key: string, id: string) => call(stack.apiUrl, 'GET', `/api/transactions/${id}`, { key });

/**
 * The dispute's row is written first, then the payment's workflow is told, then the event
 * (DISPUTE_OPENED, DISPUTE_CLOSED) is sent: once the event exists, the payment's one writer knows
 * (the row alone may show it a moment earlier).
 */
const disputeEventSent = (paymentId: string, eventType: 'DISPUTE_OPENED' | 'DISPUTE_CLOSED') =>
  eventually(async () => ((await disputeEvents(stack, paymentId)).some((e) => e.eventType === eventType) ? true : undefined));
const closedEventSent = (paymentId: string) => disputeEventSent(paymentId, 'DISPUTE_CLOSED');

/** A refund of 1 sent to the payment's workflow directly (with the service's grant), past the API's own checks. */
const straightRefund = (): RefundRequestInput => ({
  refundId: crypto.randomUUID(),
  amount: '1',
  reason: null,
  createdBy: 'test',
  createdByUserId: null,
  idempotencyKey: null,
  requestFingerprint: null,
});

it('won: opened with the evidence assembled, refunds and voids refused while open, statement stored as text, submitted, WON; then refundable', async () => {
  const d = await desk(stack, { disputeDecisionDelayMs: 1500 });
  const p = await capturedPayment(stack, d, 40);
  const opened = await openAtSandbox(stack, p.pspReference, { reason: 'NOT_RECEIVED', amount: 25.5 });
  expect(opened.status).toBe(201);
  expect(opened.body).toMatchObject({ disputeId: expect.stringMatching(/^dp_/), status: 'NEEDS_RESPONSE', reason: 'NOT_RECEIVED', amount: '25.5' });

  const dispute = await disputeOf(stack, d, p.id);
  expect(dispute).toMatchObject({
    paymentId: p.id,
    pspReference: p.pspReference,
    storeExternalId: d.shop.storeExternalId,
    acquirerAccountId: null,
    acquirerDisputeId: opened.body.disputeId,
    status: 'NEEDS_RESPONSE',
    reason: 'NOT_RECEIVED',
    amount: 25.5,
    currency: 'EUR',
    dueBy: opened.body.dueBy,
    submittedAt: null,
    closedAt: null,
  });
  expect(Object.keys(dispute).sort()).toEqual(
    [
      'id',
      'paymentId',
      'pspReference',
      'storeExternalId',
      'acquirerAccountId',
      'acquirerDisputeId',
      'status',
      'reason',
      'amount',
      'currency',
      'openedAt',
      'dueBy',
      'evidence',
      'submittedAt',
      'closedAt',
      'createdAt',
      'updatedAt',
    ].sort(),
  );
  // Due in 168 hours by default.
  expect(Date.parse(dispute.dueBy) - Date.parse(dispute.openedAt)).toBe(168 * 3_600_000);
  expect(dispute.evidence.text).toBeNull();
  expect(dispute.evidence.transaction).toMatchObject({
    pspReference: p.pspReference,
    amount: '40',
    currency: 'EUR',
    capturedAt: expect.any(String),
    paymentMethod: 'CARD',
    cardBrand: 'VISA',
    last4: '4242',
    storeName: 'Main street',
    storeAddress: { country: 'DE' },
    terminalExternalId: d.shop.terminalExternalId,
    terminalSerialNumber: `SN-${d.shop.deviceId}`,
    cashierId: 'C-7',
    refunds: [],
  });
  expect(dispute.evidence.transaction.statusHistory.map((h: { status: string }) => h.status)).toContain('CAPTURED');

  // The payment shows it, and its writer refuses refunds and voids while it is open.
  expect((await payment(d.shop.key, p.id)).body.disputeStatus).toBe('NEEDS_RESPONSE');
  const refused = await refund(stack, d.finance, p.id, { amount: 1 });
  expect(expectErrorShape(refused, 409)).toContain('dispute');
  expect(expectErrorShape(await paymentAction(stack, d.shop, p.id, 'void'), 409)).toContain('dispute');

  // No statement yet: submit is 409. A statement with markup and control characters is stored as the text it is.
  expect(expectErrorShape(await answer(stack, d.compliance, dispute.id, 'submit'), 409)).toContain('statement');
  const text = '<script>alert("x")</script> & <b>bold</b>\u0007\u001b[31m\ttab\r\nline ${x} {{y}} \u202e';
  const saved = await writeStatement(stack, d.compliance, dispute.id, { text });
  expect(saved.status).toBe(200);
  expect(saved.body.evidence.text).toBe(text);
  expect(saved.body.status).toBe('NEEDS_RESPONSE');

  const submitted = await answer(stack, d.compliance, dispute.id, 'submit');
  expect(submitted.status).toBe(200);
  expect(submitted.body).toMatchObject({ status: 'UNDER_REVIEW', submittedAt: expect.any(String), closedAt: null });
  expect(submitted.body.evidence.text).toBe(text);
  // Still open: refunds still wait; a second answer is 409.
  expect((await refund(stack, d.finance, p.id, { amount: 1 })).status).toBe(409);
  expect((await answer(stack, d.compliance, dispute.id, 'accept')).status).toBe(409);
  expect((await writeStatement(stack, d.compliance, dispute.id, { text: 'later' })).status).toBe(409);

  const won = await disputeBecomes(stack, d, dispute.id, 'WON');
  expect(won.closedAt).toEqual(expect.any(String));
  expect((await payment(d.shop.key, p.id)).body.disputeStatus).toBe('WON');
  // Closed: the payment's writer takes refunds again (told before DISPUTE_CLOSED is sent).
  await closedEventSent(p.id);
  const after = await refund(stack, d.finance, p.id, { amount: 1 });
  expect(after.status).toBe(201);

  const events = await eventually(async () => {
    const list = await disputeEvents(stack, p.id);
    return list.length >= 3 ? list : undefined;
  });
  expect(events.map((e) => e.eventType)).toEqual(['DISPUTE_OPENED', 'DISPUTE_UNDER_REVIEW', 'DISPUTE_CLOSED']);
  expect(events[0].data).toMatchObject({
    pspReference: p.pspReference,
    amount: '40.00',
    currency: 'EUR',
    status: 'CAPTURED',
    dispute: { id: dispute.id, status: 'NEEDS_RESPONSE', reason: 'NOT_RECEIVED', amount: '25.50', currency: 'EUR', dueBy: dispute.dueBy },
  });
  expect(events[1].data.dispute.status).toBe('UNDER_REVIEW');
  expect(events[2].data.dispute.status).toBe('WON');

  // The acquirer received the statement and the assembled transaction.
  const sent = await call(stack.sandboxUrl, 'GET', `/acquirer/v1/devices/${d.shop.deviceId}/disputes/${opened.body.disputeId}`);
  expect(sent.body.status).toBe('WON');

  // Each answer is audited, the refused one too.
  const audit = await stack.db.auditLog.findMany({ where: { merchantId: d.merchant.id, targetId: dispute.id }, orderBy: { id: 'asc' } });
  expect(audit.map((a) => a.action)).toEqual([
    'DISPUTE_ANSWER_REFUSED',
    'DISPUTE_EVIDENCE_SAVED',
    'DISPUTE_SUBMITTED',
    'DISPUTE_ANSWER_REFUSED',
    'DISPUTE_ANSWER_REFUSED',
  ]);
  expect(audit[1]).toMatchObject({ actorType: 'USER', details: expect.objectContaining({ textLength: text.length, paymentId: p.id }) });
});

it("the payment's own writer decides: a refund or void sent straight to its workflow is refused, also by a run started later from the row", async () => {
  const d = await desk(stack);
  const p = await capturedPayment(stack, d);
  await openAtSandbox(stack, p.pspReference);
  await disputeOf(stack, d, p.id);
  // The row is written before the payment's workflow is told; DISPUTE_OPENED is sent after it is.
  await disputeEventSent(p.id, 'DISPUTE_OPENED');
  const row = await stack.db.payment.findUniqueOrThrow({ where: { id: p.id } });
  const deps = { config: stack.config, temporal: stack.client };
  // The running run was told by the dispute's workflow (a signal): its validators refuse.
  const refused = { kind: 'rejected', code: 'conflict', message: expect.stringContaining('dispute') };
  expect(await callPaymentWorkflow(deps, row, d.shop.merchantExternalId, 'refund', [straightRefund()])).toMatchObject(refused);
  expect(await callPaymentWorkflow(deps, row, d.shop.merchantExternalId, 'void', [])).toMatchObject(refused);
  // The run ends; a refund starts a new one from the row, which reads the open dispute before deciding.
  await workflowHandle(stack, p.id).terminate('test: the run ends');
  expect(await callPaymentWorkflow(deps, row, d.shop.merchantExternalId, 'refund', [straightRefund()])).toMatchObject(refused);
  expect(await stack.db.refund.count({ where: { paymentId: p.id } })).toBe(0);
});

it('lost: the scheme decides LOST; the chargeback took the money back, so neither a void nor a refund gives it back again', async () => {
  const d = await desk(stack, { disputeOutcome: 'LOST' });
  const p = await capturedPayment(stack, d);
  await openAtSandbox(stack, p.pspReference);
  const dispute = await disputeOf(stack, d, p.id);
  expect(dispute).toMatchObject({ reason: 'FRAUD', amount: 40 });
  expect((await paymentAction(stack, d.shop, p.id, 'void')).status).toBe(409);
  expect((await writeStatement(stack, d.compliance, dispute.id, { text: 'The customer signed.' })).status).toBe(200);
  expect((await answer(stack, d.compliance, dispute.id, 'submit')).status).toBe(200);
  const lost = await disputeBecomes(stack, d, dispute.id, 'LOST');
  expect(lost.submittedAt).toEqual(expect.any(String));
  expect((await payment(d.shop.key, p.id)).body.disputeStatus).toBe('LOST');
  await closedEventSent(p.id);
  // The cardholder has the 40.00 back through the chargeback: a void or a refund would pay it twice.
  const voided = await paymentAction(stack, d.shop, p.id, 'void');
  expectErrorShape(voided, 409);
  expect(voided.body.message).toContain('chargeback');
  const refunded = await refund(stack, d.finance, p.id, { amount: 40 });
  expectErrorShape(refunded, 409);
  expect(refunded.body.message).toContain('chargeback');
  expectErrorShape(await refund(stack, d.finance, p.id, {}), 409);
  // Past the API's own check too: the payment's writer counts the chargeback, also in a run started later from the row.
  const row = await stack.db.payment.findUniqueOrThrow({ where: { id: p.id } });
  const deps = { config: stack.config, temporal: stack.client };
  const refused = { kind: 'rejected', code: 'conflict', message: expect.stringContaining('chargeback') };
  expect(await callPaymentWorkflow(deps, row, d.shop.merchantExternalId, 'void', [])).toMatchObject(refused);
  expect(await callPaymentWorkflow(deps, row, d.shop.merchantExternalId, 'refund', [straightRefund()])).toMatchObject(refused);
  await workflowHandle(stack, p.id).terminate('test: the run ends');
  expect(await callPaymentWorkflow(deps, row, d.shop.merchantExternalId, 'refund', [straightRefund()])).toMatchObject(refused);
  expect(await stack.db.refund.count({ where: { paymentId: p.id } })).toBe(0);
  expect((await payment(d.shop.key, p.id)).body).toMatchObject({ status: 'CAPTURED', refundedAmount: 0 });
});

it('a partial chargeback lost: only what it did not take back stays refundable', async () => {
  const d = await desk(stack, { disputeOutcome: 'LOST' });
  const p = await capturedPayment(stack, d, 40);
  await openAtSandbox(stack, p.pspReference, { amount: 25.5 });
  const dispute = await disputeOf(stack, d, p.id);
  expect((await writeStatement(stack, d.compliance, dispute.id, { text: 'Half of it was delivered.' })).status).toBe(200);
  expect((await answer(stack, d.compliance, dispute.id, 'submit')).status).toBe(200);
  await disputeBecomes(stack, d, dispute.id, 'LOST');
  await closedEventSent(p.id);
  const tooMuch = await refund(stack, d.finance, p.id, { amount: 14.51 });
  expectErrorShape(tooMuch, 409);
  expect(tooMuch.body.message).toContain('14.5 still refundable');
  const rest = await refund(stack, d.finance, p.id, { amount: 14.5 });
  expect(rest.status).toBe(201);
  expect(rest.body).toMatchObject({ status: 'SUCCEEDED', amount: 14.5 });
  expectErrorShape(await refund(stack, d.finance, p.id, { amount: 0.01 }), 409);
});

it('accepted: ACCEPTED at once, final; no answer after it', async () => {
  const d = await desk(stack);
  const p = await capturedPayment(stack, d);
  await openAtSandbox(stack, p.pspReference, { reason: 'DUPLICATE' });
  const dispute = await disputeOf(stack, d, p.id);
  const { token: admin } = await signedInUser(stack.db, stack.apiUrl, d.merchant, ['ADMIN']);
  const accepted = await answer(stack, admin, dispute.id, 'accept');
  expect(accepted.status).toBe(200);
  expect(accepted.body).toMatchObject({ status: 'ACCEPTED', closedAt: expect.any(String), submittedAt: null });
  expect((await answer(stack, admin, dispute.id, 'accept')).status).toBe(409);
  expect((await answer(stack, admin, dispute.id, 'submit')).status).toBe(409);
  expect((await writeStatement(stack, admin, dispute.id, { text: 'too late' })).status).toBe(409);
  expect((await payment(d.shop.key, p.id)).body.disputeStatus).toBe('ACCEPTED');
  const events = await eventually(async () => {
    const list = await disputeEvents(stack, p.id);
    return list.some((e) => e.eventType === 'DISPUTE_CLOSED') ? list : undefined;
  });
  expect(events.map((e) => e.eventType)).toEqual(['DISPUTE_OPENED', 'DISPUTE_CLOSED']);
  expect(events[1].data.dispute.status).toBe('ACCEPTED');
  // Accepting gave the cardholder the whole 40.00: nothing is left to refund or void.
  const refunded = await refund(stack, d.finance, p.id, { amount: 1 });
  expectErrorShape(refunded, 409);
  expect(refunded.body.message).toContain('chargeback');
  expectErrorShape(await paymentAction(stack, d.shop, p.id, 'void'), 409);
});

it('expires by itself on time when nobody answers, after exactly one reminder', async () => {
  const d = await desk(stack);
  const p = await capturedPayment(stack, d);
  const opened = await openAtSandbox(stack, p.pspReference, { respondWithinHours: 0.002 }); // due in 7.2 s, reminded at 3.6 s
  const dueBy = Date.parse(opened.body.dueBy);
  const dispute = await disputeOf(stack, d, p.id);
  expect(dispute.status).toBe('NEEDS_RESPONSE');
  const reminder = await eventually(async () => (await disputeEvents(stack, p.id)).find((e) => e.eventType === 'DISPUTE_RESPONSE_DUE'), 10_000);
  expect(reminder.data.dispute).toMatchObject({ id: dispute.id, status: 'NEEDS_RESPONSE', dueBy: opened.body.dueBy });
  expect(Date.now()).toBeLessThan(dueBy); // reminded before the due date
  const expired = await disputeBecomes(stack, d, dispute.id, 'EXPIRED', 15_000);
  const seenLateMs = Date.now() - dueBy;
  console.log(`dispute expired ${Date.parse(expired.closedAt) - dueBy} ms after dueBy (seen ${seenLateMs} ms after)`);
  expect(Date.parse(expired.closedAt)).toBeGreaterThanOrEqual(dueBy);
  expect(Date.parse(expired.closedAt) - dueBy).toBeLessThan(3000);
  expect((await answer(stack, d.compliance, dispute.id, 'submit')).status).toBe(409);
  await sleep(500);
  const types = (await disputeEvents(stack, p.id)).map((e) => e.eventType);
  expect(types).toEqual(['DISPUTE_OPENED', 'DISPUTE_RESPONSE_DUE', 'DISPUTE_CLOSED']);
  expect((await payment(d.shop.key, p.id)).body.disputeStatus).toBe('EXPIRED');
});

it('a notification that arrives twice, at once and again later, opens one dispute', async () => {
  const d = await desk(stack);
  const p = await capturedPayment(stack, d);
  const opened = await openAtSandbox(stack, p.pspReference);
  const row = await stack.db.payment.findUniqueOrThrow({ where: { id: p.id } });
  const body = JSON.stringify({ deviceId: row.deviceId, acquirerRef: row.acquirerRef, event: 'DISPUTE_OPENED', disputeId: opened.body.disputeId });
  const notify = () =>
    call(stack.apiUrl, 'POST', '/internal/acquirer/notifications', {
      rawBody: body,
      headers: { 'Content-Type': 'application/json', 'X-Sandbox-Signature': signSandboxBody(body, stack.config.SANDBOX_NOTIFY_SECRET!) },
    });
  const answers = await Promise.all(Array.from({ length: 5 }, notify));
  expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202, 202]);
  await disputeOf(stack, d, p.id);
  expect((await notify()).status).toBe(202);
  await sleep(500);
  expect(await stack.db.dispute.count({ where: { paymentId: p.id } })).toBe(1);
  expect((await disputeEvents(stack, p.id)).map((e) => e.eventType)).toEqual(['DISPUTE_OPENED']);
});

it('a dispute on a fully refunded payment is recorded, with the refunds in its evidence', async () => {
  const d = await desk(stack);
  const p = await capturedPayment(stack, d, 20);
  expect((await refund(stack, d.finance, p.id)).body.status).toBe('SUCCEEDED');
  const opened = await openAtSandbox(stack, p.pspReference, { reason: 'CREDIT_NOT_PROCESSED' });
  expect(opened.status).toBe(201);
  const dispute = await disputeOf(stack, d, p.id);
  expect(dispute).toMatchObject({ status: 'NEEDS_RESPONSE', reason: 'CREDIT_NOT_PROCESSED', amount: 20 });
  expect(dispute.evidence.transaction.refunds).toEqual([expect.objectContaining({ amount: '20', status: 'SUCCEEDED' })]);
  expect((await payment(d.shop.key, p.id)).body).toMatchObject({ status: 'REFUNDED', disputeStatus: 'NEEDS_RESPONSE' });
});

it('roles: ADMIN and COMPLIANCE answer, FINANCE reads, others 403, an API key 401, another business 404', async () => {
  const d = await desk(stack);
  const p = await capturedPayment(stack, d);
  await openAtSandbox(stack, p.pspReference);
  const dispute = await disputeOf(stack, d, p.id);
  const { token: admin } = await signedInUser(stack.db, stack.apiUrl, d.merchant, ['ADMIN']);
  const { token: ops } = await signedInUser(stack.db, stack.apiUrl, d.merchant, ['OPERATIONS']);
  const { token: user } = await signedInUser(stack.db, stack.apiUrl, d.merchant, ['USER']);
  const list = (token?: string, key?: string) => call(stack.apiUrl, 'GET', '/api/dashboard/disputes', { token, key });
  const one = (token?: string, key?: string) => call(stack.apiUrl, 'GET', `/api/dashboard/disputes/${dispute.id}`, { token, key });
  for (const token of [admin, d.compliance, d.finance]) {
    expect((await list(token)).status).toBe(200);
    expect((await one(token)).status).toBe(200);
  }
  for (const token of [ops, user]) {
    expectErrorShape(await list(token), 403);
    expectErrorShape(await one(token), 403);
  }
  expectErrorShape(await list(undefined, d.shop.key), 401);
  expectErrorShape(await one(undefined, d.shop.key), 401);
  for (const token of [d.finance, ops, user]) {
    expectErrorShape(await writeStatement(stack, token, dispute.id, { text: 'x' }), 403);
    expectErrorShape(await answer(stack, token, dispute.id, 'submit'), 403);
    expectErrorShape(await answer(stack, token, dispute.id, 'accept'), 403);
  }
  expectErrorShape(await call(stack.apiUrl, 'POST', `/api/dashboard/disputes/${dispute.id}/accept`, { key: d.shop.key }), 401);
  expect((await writeStatement(stack, admin, dispute.id, { text: 'by the administrator' })).status).toBe(200);

  // Another business sees none of it.
  const other = await desk(stack);
  expectErrorShape(await one(other.compliance), 404);
  expectErrorShape(await writeStatement(stack, other.compliance, dispute.id, { text: 'x' }), 404);
  expectErrorShape(await answer(stack, other.compliance, dispute.id, 'accept'), 404);
  expect((await list(other.compliance)).body.content).toEqual([]);

  // The list: newest first, filtered by status and store, paged.
  const p2 = await capturedPayment(stack, d);
  await openAtSandbox(stack, p2.pspReference);
  const second = await disputeOf(stack, d, p2.id);
  const page = (await call(stack.apiUrl, 'GET', '/api/dashboard/disputes?size=1', { token: d.finance })).body;
  expect(page).toMatchObject({ totalElements: 2, totalPages: 2, page: 0, size: 1 });
  expect(page.content.map((x: { id: string }) => x.id)).toEqual([second.id]);
  const byStore = await call(stack.apiUrl, 'GET', `/api/dashboard/disputes?storeExternalId=${d.shop.storeExternalId}&status=NEEDS_RESPONSE`, {
    token: d.finance,
  });
  expect(byStore.body.content.map((x: { id: string }) => x.id)).toEqual([second.id, dispute.id]);
  const ofPayment = await call(stack.apiUrl, 'GET', `/api/dashboard/disputes?paymentId=${p.id}`, { token: d.finance });
  expect(ofPayment.body.content.map((x: { id: string }) => x.id)).toEqual([dispute.id]); // the payment page's link
  const none = await call(stack.apiUrl, 'GET', '/api/dashboard/disputes?status=WON', { token: d.finance });
  expect(none.body.totalElements).toBe(0);
  const future = await call(stack.apiUrl, 'GET', `/api/dashboard/disputes?from=${new Date(Date.now() + 60_000).toISOString()}`, { token: d.finance });
  expect(future.body.totalElements).toBe(0);
});

it('validation: 400 in the error shape naming the field', async () => {
  const d = await desk(stack);
  const p = await capturedPayment(stack, d);
  await openAtSandbox(stack, p.pspReference);
  const dispute = await disputeOf(stack, d, p.id);
  const bad = async (result: Promise<{ status: number; body: any; headers: Headers }>, field: string) =>
    expect(expectErrorShape(await result, 400)).toContain(field);
  await bad(writeStatement(stack, d.compliance, dispute.id, { text: '' }), 'text');
  await bad(writeStatement(stack, d.compliance, dispute.id, { text: 'x'.repeat(20_001) }), 'text');
  await bad(writeStatement(stack, d.compliance, dispute.id, { text: 5 }), 'text');
  await bad(writeStatement(stack, d.compliance, dispute.id, {}), 'text');
  await bad(writeStatement(stack, d.compliance, dispute.id, { text: 'ok', extra: 1 }), 'extra');
  await bad(call(stack.apiUrl, 'GET', '/api/dashboard/disputes?status=OPEN', { token: d.compliance }), 'status');
  await bad(call(stack.apiUrl, 'GET', '/api/dashboard/disputes?size=101', { token: d.compliance }), 'size');
  await bad(call(stack.apiUrl, 'GET', '/api/dashboard/disputes?from=yesterday', { token: d.compliance }), 'from');
  await bad(call(stack.apiUrl, 'GET', '/api/dashboard/disputes?paymentId=abc', { token: d.compliance }), 'paymentId');
  await bad(call(stack.apiUrl, 'GET', '/api/dashboard/disputes/not-an-id', { token: d.compliance }), 'id');
  // At its limit, a statement is taken.
  const longest = await writeStatement(stack, d.compliance, dispute.id, { text: 'é'.repeat(20_000) });
  expect(longest.status).toBe(200);
  expect(longest.body.evidence.text).toHaveLength(20_000);
  // The sandbox's own validation.
  const simBad = await call(stack.sandboxUrl, 'POST', `/sim/payments/${p.pspReference}/disputes`, { body: { reason: 'BORED' } });
  expect(simBad.status).toBe(400);
  expect(simBad.body.message).toContain('reason');
  expect((await call(stack.sandboxUrl, 'POST', '/sim/payments/no-such-payment/disputes', { body: {} })).status).toBe(404);
  expect((await sim(stack).configure(d.shop.deviceId, { disputeOutcome: 'MAYBE' })).status).toBe(400);
});
