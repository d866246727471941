import { cancelBill, createBill, createBillTender, createPayment, getBill, getTransaction } from '@in-store-payments/client';
import { customerPays, type E2EState, expect, expectAccessible, posClient, screenshot, signIn, state, test } from './fixtures';

/**
 * Bills in the dashboard (docs/dashboard.md, "Bills"; docs/bills.md): a table's bill split between
 * a card that approves less than asked and cash, and a bill the customer walked away from, given
 * back. The list shows both with paid and remaining as money; the split bill's page lists its
 * tenders in order, the card's links to its payment page and that page back to the bill; the
 * given-back bill's page says, step by step, what was done with each tender. A reference with
 * markup is shown as text.
 */
test.describe.configure({ mode: 'serial' });

const tag = Date.now();
const HOSTILE_REFERENCE = `<img src=x onerror="window.__pwned = 4">table-${tag}`;
const WALK_OUT = `walk-out-${tag}`;

interface OpenedBill {
  id: string;
  reference: string;
  cardPaymentId: string;
  cardPsp: string;
}
let split: OpenedBill;
let walkOut: OpenedBill;

/** A bill opened at the till, through the API with the seeded test key. */
async function openBill(s: E2EState, reference: string, amount: number): Promise<string> {
  const created = await createBill({
    client: posClient(s),
    body: { merchantExternalId: s.merchantExternalId, storeExternalId: s.storeExternalId, reference, amount, currency: 'EUR' },
  });
  expect(created.response.status, JSON.stringify(created.data)).toBe(201);
  return created.data.id;
}

/** A card tender of the bill on the seeded terminal, paid by the customer (the card approves `approved` when given); waits for CAPTURED. */
async function cardTender(s: E2EState, billId: string, amount: number, approved?: number): Promise<{ id: string; pspReference: string }> {
  const client = posClient(s);
  const created = await createPayment({
    client,
    body: {
      merchantExternalId: s.merchantExternalId,
      storeExternalId: s.storeExternalId,
      terminalExternalId: s.terminalExternalId,
      amount,
      currency: 'EUR',
      reference: `tender-${billId}`,
      billId,
    },
  });
  expect(created.response.status, JSON.stringify(created.data)).toBe(201);
  await customerPays(s, approved === undefined ? {} : { approvedAmount: approved });
  await expect.poll(async () => (await getTransaction({ client, path: { id: created.data.id } })).data.status).toBe('CAPTURED');
  // The bill hears of its tender a moment after the payment's own status (docs/bills.md): a till
  // reads what remains from the bill before the next tender, as here.
  await expect
    .poll(async () => (await getBill({ client, path: { id: billId } })).data.tenders?.find((t) => t.paymentId === created.data.id)?.status)
    .toBe('CAPTURED');
  return { id: created.data.id, pspReference: created.data.pspReference };
}

async function cash(s: E2EState, billId: string, amount: number): Promise<void> {
  const taken = await createBillTender({ client: posClient(s), path: { id: billId }, body: { method: 'CASH', amount } });
  expect(taken.response.status, JSON.stringify(taken.data)).toBe(201);
}

const billStatus = async (s: E2EState, id: string) => (await getBill({ client: posClient(s), path: { id } })).data.status;

test.beforeAll(async () => {
  const s = state();
  // 40.00 at table: a gift card asked 30.00 approves 25.00, the guest pays the 15.00 left in cash.
  const splitId = await openBill(s, HOSTILE_REFERENCE, 40);
  const card = await cardTender(s, splitId, 30, 25);
  await cash(s, splitId, 15);
  await expect.poll(() => billStatus(s, splitId)).toBe('PAID');
  split = { id: splitId, reference: HOSTILE_REFERENCE, cardPaymentId: card.id, cardPsp: card.pspReference };

  // 50.00: 20.00 on a card and 10.00 in cash, then the customer walks out and the till cancels.
  const walkOutId = await openBill(s, WALK_OUT, 50);
  const paid = await cardTender(s, walkOutId, 20);
  await cash(s, walkOutId, 10);
  const cancelled = await cancelBill({ client: posClient(s), path: { id: walkOutId } });
  expect(cancelled.response.status).toBe(202);
  await expect.poll(() => billStatus(s, walkOutId)).toBe('CANCELLED');
  walkOut = { id: walkOutId, reference: WALK_OUT, cardPaymentId: paid.id, cardPsp: paid.pspReference };
});

test('the list: bills newest first with paid and remaining as money, narrowed by status and mode', async ({ page }) => {
  const s = state();
  await signIn(page, s.users.USER, s.password);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Bills', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/bills$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Bills' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Bills' });
  const splitRow = table.getByRole('row').filter({ hasText: split.reference });
  const walkOutRow = table.getByRole('row').filter({ hasText: WALK_OUT });
  await expect(splitRow.getByRole('cell')).toHaveText([split.reference, 'PAID', '€40.00', '€40.00', '€0.00', '2', 'Main Street', 'test', /\d/]);
  await expect(walkOutRow.getByRole('cell').nth(1)).toHaveText('CANCELLED');
  await expect(walkOutRow.getByRole('cell').nth(2)).toHaveText('€50.00');
  // Newest first: the walked-out bill was opened after the split one.
  const references = await table.getByRole('row').locator('td:first-child').allTextContents();
  expect(references.indexOf(WALK_OUT)).toBeLessThan(references.indexOf(split.reference));
  expect(references.indexOf(WALK_OUT)).toBeGreaterThanOrEqual(0);
  // The reference with markup is text: no image, nothing run.
  await expect(table.locator('img')).toHaveCount(0);
  expect(await page.evaluate(() => (globalThis as any).__pwned)).toBeUndefined();
  await screenshot(page, 'bills');
  await expectAccessible(page);

  await page.getByLabel('Status').selectOption('CANCELLED');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/status=CANCELLED/);
  await expect(walkOutRow).toHaveCount(1);
  await expect(splitRow).toHaveCount(0);
  // The seeded business's bills are test bills: none among live ones.
  await page.getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'Live', exact: true }).click();
  await expect(table.getByRole('row').nth(1)).toHaveText('No bills match these filters.');
});

test('a split bill: a partly approved card and cash in order; the card links to its payment, and the payment back to the bill', async ({ page }) => {
  const s = state();
  await signIn(page, s.users.OPERATIONS, s.password);
  await page.goto('/dashboard/bills');
  await page.getByRole('table', { name: 'Bills' }).getByRole('link', { name: split.reference, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/bills/${split.id}$`));
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText(`Bill ${split.reference} PAID`);
  const fields = page.locator('dl.fields');
  await expect(fields.locator('.field', { hasText: 'Amount' }).first()).toHaveText('Amount€40.00');
  await expect(fields.locator('.field', { hasText: 'Paid' })).toHaveText('Paid€40.00');
  await expect(fields.locator('.field', { hasText: 'Remaining' })).toHaveText('Remaining€0.00');
  await expect(fields.locator('.field', { hasText: 'Store' })).toContainText('Main Street');
  await expect(fields.locator('.field', { hasText: 'Expires' })).toContainText(/\d{4}/);
  const tenders = page.getByRole('table', { name: 'Tenders' });
  await expect(tenders.getByRole('row')).toHaveCount(3);
  await expect(tenders.getByRole('row').nth(1).getByRole('cell')).toHaveText([
    'Tender 1 · CARD',
    'CARD',
    'CAPTURED',
    '€25.00',
    '€30.00 (partly approved)',
    '€0.00',
  ]);
  await expect(tenders.getByRole('row').nth(2).getByRole('cell')).toHaveText(['Tender 2 · CASH', 'CASH', 'RECEIVED', '€15.00', '€15.00', '€0.00']);
  await expect(tenders.getByRole('row').nth(2).getByRole('link')).toHaveCount(0); // cash has no payment page
  await expect(page.getByRole('list', { name: 'Give-back' })).toHaveCount(0); // paid: nothing given back
  await expect(page.locator('main img')).toHaveCount(0);
  expect(await page.evaluate(() => (globalThis as any).__pwned)).toBeUndefined();
  await screenshot(page, 'bill-split');
  await expectAccessible(page);

  await tenders.getByRole('link', { name: 'Tender 1 · CARD' }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/payments/${split.cardPaymentId}$`));
  await expect(page.getByRole('heading', { name: `Payment ${split.cardPsp}` })).toContainText('CAPTURED');
  const payment = page.locator('dl.fields');
  await expect(payment.locator('.field', { hasText: 'Requested amount' })).toHaveText(
    'Requested amount€30.00 (partly approved: the card approved less than asked)',
  );
  await expect(payment.locator('.field').filter({ has: page.locator('dt', { hasText: /^Amount$/ }) })).toHaveText('Amount€25.00');
  const billField = payment.locator('.field').filter({ has: page.locator('dt', { hasText: /^Bill$/ }) });
  await expect(billField).toContainText('tender 1');
  await screenshot(page, 'payment-bill');
  await expectAccessible(page);
  await billField.getByRole('link', { name: `Bill ${split.reference}` }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/bills/${split.id}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Bill ${split.reference} PAID`);
});

test('a bill given back: step by step, the card voided and the cash to hand back at the till', async ({ page }) => {
  const s = state();
  await signIn(page, s.users.FINANCE, s.password);
  await page.goto(`/dashboard/bills/${walkOut.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Bill ${WALK_OUT} CANCELLED`);
  await expect(page.getByText('Cancelled: every tender was given back as listed below.')).toBeVisible();
  const steps = page.getByRole('list', { name: 'Give-back' }).getByRole('listitem');
  await expect(steps).toHaveText([
    'Tender 1 · CARD · €20.00: voided: the capture was reversed',
    'Tender 2 · CASH · €10.00: to return at the till: the service cannot hand back cash or other tenders',
  ]);
  const tenders = page.getByRole('table', { name: 'Tenders' });
  await expect(tenders.getByRole('row').nth(1).getByRole('cell').nth(2)).toHaveText('CANCELLED');
  await screenshot(page, 'bill-given-back');
  await expectAccessible(page);

  // The voided card's own page says the same, and leads back.
  await steps.first().getByRole('link', { name: 'Tender 1 · CARD' }).click();
  await expect(page.getByRole('heading', { name: `Payment ${walkOut.cardPsp}` })).toContainText('CANCELLED');
  await expect(page.getByRole('list', { name: 'Status history' })).toContainText('from CAPTURED');
  await page.getByRole('link', { name: `Bill ${WALK_OUT}` }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/bills/${walkOut.id}$`));
});
