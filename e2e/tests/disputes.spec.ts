import { getTransaction } from '@in-store-payments/client';
import type { Page } from '@playwright/test';
import {
  configureDevice,
  customerPays,
  expect,
  openDispute,
  posClient,
  screenshot,
  signIn,
  state,
  takePayment,
  test,
  type E2EState,
  expectAccessible,
} from './fixtures';

/**
 * Disputes in the dashboard (docs/dashboard.md, "Disputes (ADMIN, COMPLIANCE, FINANCE)"): the cardholder's bank disputes
 * payments taken at the till (the sandbox opens them); COMPLIANCE answers one with a statement,
 * ADMIN accepts another, FINANCE only reads, USER and OPERATIONS do not reach the area. A near due
 * date stands out; a statement and receipt facts with markup and control characters show as text.
 */
test.describe.configure({ mode: 'serial' });

const HOSTILE_STATEMENT = 'Goods handed over at the till.\n<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">\u0007bell \u202Eesrever';
const HOSTILE_REFERENCE = '<img src=x onerror="window.__pwned = 3">';
const HOSTILE_CASHIER = '<b>Mallory</b>\u202E';

interface Disputed {
  paymentId: string;
  pspReference: string;
}
/** Filled by the first test, in the order the sandbox opened them. */
const d: Record<'near' | 'far' | 'expired' | 'hostile', Disputed> = {} as never;
/** The near dispute's id, from the address of its page. */
let nearId: string | undefined;

/** A payment taken and paid at the till, then disputed at the sandbox. */
async function disputedPayment(
  s: E2EState,
  amount: number,
  reference: string,
  dispute: Parameters<typeof openDispute>[2],
  cashierId?: string,
): Promise<Disputed> {
  const payment = await takePayment(s, amount, reference, cashierId);
  await customerPays(s);
  // Captured here too before the next bill: the terminal takes one bill at a time.
  await expect.poll(async () => (await getTransaction({ client: posClient(s), path: { id: payment.id } })).data.status).toBe('CAPTURED');
  await openDispute(s, payment.pspReference, dispute);
  return { paymentId: payment.id, pspReference: payment.pspReference };
}

/** Opens a dispute's page from the list (it appears once the service has recorded it). */
async function openFromList(page: Page, pspReference: string): Promise<void> {
  await page.goto('/dashboard/disputes');
  const row = page.getByRole('table', { name: 'Disputes' }).getByRole('row').filter({ hasText: pspReference });
  await row.getByRole('link', { name: pspReference }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Dispute ${pspReference}` })).toBeVisible();
}

test.beforeAll(async () => {
  // The scheme takes a day to decide a submitted dispute: UNDER_REVIEW stays on screen.
  await configureDevice(state(), { disputeDecisionDelayMs: 86_400_000 });
});

test.afterAll(async () => {
  await configureDevice(state(), { disputeDecisionDelayMs: 0 });
});

test('the list: newest first, filters, a near due date stands out, an expired one otherwise', async ({ page }) => {
  const s = state();
  const tag = Date.now();
  d.far = await disputedPayment(s, 30.1, `disp-far-${tag}`, { reason: 'NOT_RECEIVED' });
  d.expired = await disputedPayment(s, 30.2, `disp-exp-${tag}`, { reason: 'DUPLICATE', respondWithinHours: 0.001 });
  d.hostile = await disputedPayment(s, 30.3, HOSTILE_REFERENCE, { reason: 'GENERAL' }, HOSTILE_CASHIER);
  d.near = await disputedPayment(s, 30.4, `disp-near-${tag}`, { reason: 'FRAUD', respondWithinHours: 5 });

  await signIn(page, s.users.COMPLIANCE, s.password);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Disputes' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Disputes' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Disputes' });
  const row = (x: Disputed) => table.getByRole('row').filter({ hasText: x.pspReference });
  await expect(row(d.near)).toBeVisible(); // the list refreshes by itself
  await expect(row(d.expired)).toContainText('EXPIRED'); // the service expires it on time, by itself

  // Newest first: the near one was opened last.
  const order = await table.getByRole('row').allTextContents();
  const at = (x: Disputed) => order.findIndex((t) => t.includes(x.pspReference));
  expect(at(d.near)).toBeLessThan(at(d.hostile));
  expect(at(d.hostile)).toBeLessThan(at(d.expired));
  expect(at(d.expired)).toBeLessThan(at(d.far));

  // Each row: payment, reason, amount, status badge, due date.
  await expect(row(d.near)).toContainText('FRAUD');
  await expect(row(d.near)).toContainText('€30.40');
  await expect(row(d.near).locator('.status')).toHaveText('NEEDS_RESPONSE');
  // Due in 5 hours, within the 48 h reminder window: marked in words and colour.
  const near = row(d.near).locator('[data-due]');
  await expect(near).toHaveAttribute('data-due', 'soon');
  await expect(near).toContainText(/due in 4 h \d+ min/);
  // Seven days away: the words, without the mark.
  const far = row(d.far).locator('[data-due]');
  await expect(far).toHaveAttribute('data-due', 'open');
  await expect(far).toContainText(/due in 6 d 23 h/);
  // Expired unanswered: marked otherwise.
  const expired = row(d.expired).locator('[data-due]');
  await expect(expired).toHaveAttribute('data-due', 'expired');
  await expect(expired).toContainText('expired unanswered');
  const colour = (tag: typeof near) => tag.locator('.due-text').evaluate((e) => (globalThis as any).getComputedStyle(e).backgroundColor as string);
  const [nearColour, farColour, expiredColour] = [await colour(near), await colour(far), await colour(expired)];
  expect(nearColour).not.toBe(farColour);
  expect(expiredColour).not.toBe(nearColour);
  expect(expiredColour).not.toBe(farColour);
  await screenshot(page, 'disputes');
  await expectAccessible(page);

  // Filters live in the address: by status, by store, by opening dates.
  await page.getByLabel('Status').selectOption('EXPIRED');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/status=EXPIRED/);
  await expect(row(d.expired)).toBeVisible();
  await expect(row(d.near)).toHaveCount(0);
  await page.getByLabel('Status').selectOption('');
  await page.getByLabel('Store', { exact: true }).selectOption({ label: 'Main Street (test)' });
  const today = new Date().toISOString().slice(0, 10);
  await page.getByLabel('Opened from').fill(today);
  await page.getByLabel('Opened to').fill(today);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(row(d.near)).toBeVisible();
  await expect(row(d.far)).toBeVisible();
  await page.goto('/dashboard/disputes?storeExternalId=no-such-store'); // a bookmarked filter of a store since deleted
  await expect(table).toContainText('No disputes match these filters.');
});

test('COMPLIANCE writes a statement and submits it after confirming: UNDER_REVIEW', async ({ page, pageErrors }) => {
  pageErrors.allowRefusal(409); // submitting without a statement, in words
  const s = state();
  await signIn(page, s.users.COMPLIANCE, s.password);
  await openFromList(page, d.near.pspReference);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('NEEDS_RESPONSE');

  // The evidence the service assembled from its own records.
  const evidence = page.getByRole('region', { name: 'Assembled evidence' });
  await expect(evidence).toContainText(`disp-near-`);
  await expect(evidence).toContainText('€30.40');
  await expect(evidence).toContainText('VISA •••• 4242');
  await expect(evidence).toContainText(s.terminalExternalId);
  await expect(evidence).toContainText('Main Street');
  await expect(evidence.getByRole('list', { name: 'Evidence status history' })).toContainText('CAPTURED');

  // Submitting before any statement is saved: the API's 409, in words.
  await page.getByRole('button', { name: 'Submit evidence' }).click();
  const dialog = page.getByRole('dialog', { name: 'Submit the evidence?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Confirm submit' }).click();
  await expect(page.getByRole('alert')).toContainText('Not possible now (409)');
  await expect(page.getByRole('alert')).toContainText('statement');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('NEEDS_RESPONSE');

  // The statement: counted as typed, saved, then submitted.
  const statement = page.getByLabel('Statement');
  const text = 'The customer signed for the cake at the counter; the receipt and the till log are attached.';
  await statement.fill(text);
  await expect(page.getByText(`${text.length} / 20000 characters`)).toBeVisible();
  await expect(page.getByText('Unsaved changes')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Submit evidence' })).toBeDisabled(); // the saved statement is what is sent
  await page.getByRole('button', { name: 'Save statement' }).click();
  await expect(page.getByText('Saved', { exact: true })).toBeVisible();
  await screenshot(page, 'dispute-detail');
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Submit evidence' }).click();
  await expect(dialog).toContainText(`${text.length} characters`);
  await screenshot(page, 'dispute-confirm-submit');
  await dialog.getByRole('button', { name: 'Confirm submit' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('UNDER_REVIEW');
  // Answered: read only now, the statement as sent.
  await expect(page.getByRole('button', { name: 'Submit evidence' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Statement' })).toHaveText(text);
  await expect(page.locator('.field').filter({ hasText: 'Submitted' }).locator('dd')).not.toHaveText('—');
  nearId = /\/disputes\/([0-9a-f-]{36})$/.exec(page.url())?.[1];
});

test('ADMIN accepts another dispute after confirming: ACCEPTED; Cancel changes nothing', async ({ page }) => {
  const s = state();
  await signIn(page, s.users.ADMIN, s.password);
  await openFromList(page, d.far.pspReference);
  await page.getByRole('button', { name: 'Accept dispute' }).click();
  const dialog = page.getByRole('dialog', { name: 'Accept the dispute?' });
  await expect(dialog).toContainText('€30.10');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('NEEDS_RESPONSE');

  await page.getByRole('button', { name: 'Accept dispute' }).click();
  await dialog.getByRole('button', { name: 'Confirm accept' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('ACCEPTED');
  await expect(page.getByRole('button', { name: 'Accept dispute' })).toHaveCount(0);
  await expect(page.getByText('No statement was written.')).toBeVisible();

  // The payment's page shows its dispute and links to it.
  await page.getByRole('link', { name: d.far.pspReference }).first().click();
  await expect(page.getByRole('heading', { name: `Payment ${d.far.pspReference}` })).toBeVisible();
  const disputes = page.getByRole('list', { name: 'Disputes of this payment' });
  await expect(disputes).toContainText('NOT_RECEIVED dispute, ACCEPTED');
  await screenshot(page, 'payment-dispute');
  await disputes.getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1, name: `Dispute ${d.far.pspReference}` })).toContainText('ACCEPTED');
});

test('a statement and receipt facts with markup and control characters are shown as text', async ({ page }) => {
  const s = state();
  await signIn(page, s.users.COMPLIANCE, s.password);
  await openFromList(page, d.hostile.pspReference);
  await page.getByLabel('Statement').fill(HOSTILE_STATEMENT);
  await expect(page.getByRole('note')).toContainText('⟨U+0007⟩ ⟨U+202E⟩'); // told about the invisible characters
  await page.getByRole('button', { name: 'Save statement' }).click();
  await expect(page.getByText('Saved', { exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Statement')).toHaveValue(HOSTILE_STATEMENT); // stored exactly as typed

  // FINANCE reads it: text, nothing interpreted.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await signIn(page, s.users.FINANCE, s.password);
  await openFromList(page, d.hostile.pspReference);
  const shown = page.getByRole('region', { name: 'Statement' });
  await expect(shown).toContainText('<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">⟨U+0007⟩bell ⟨U+202E⟩esrever');
  await expect(shown.locator('script, img')).toHaveCount(0);
  await expect(shown.locator('mark.invisible-char')).toHaveText(['⟨U+0007⟩', '⟨U+202E⟩']); // marked apart from typed text
  const evidence = page.getByRole('region', { name: 'Assembled evidence' });
  await expect(evidence).toContainText(HOSTILE_REFERENCE);
  await expect(evidence).toContainText('<b>Mallory</b>⟨U+202E⟩');
  await expect(evidence.locator('img, b, script')).toHaveCount(0);
  expect(await page.evaluate(() => (globalThis as any).__pwned)).toBeUndefined();
  await screenshot(page, 'dispute-as-text');
});

test('FINANCE reads disputes without any answer control', async ({ page }) => {
  const s = state();
  await signIn(page, s.users.FINANCE, s.password);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Disputes' })).toBeVisible();
  await openFromList(page, d.hostile.pspReference);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('NEEDS_RESPONSE');
  await expect(page.getByRole('region', { name: 'Assembled evidence' })).toBeVisible();
  for (const name of ['Save statement', 'Submit evidence', 'Accept dispute']) await expect(page.getByRole('button', { name })).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Statement' })).toHaveCount(0);
  await expect(page.getByText('Read only: ADMIN and COMPLIANCE answer disputes.')).toBeVisible();
});

for (const role of ['USER', 'OPERATIONS'] as const) {
  test(`${role} has no Disputes entry, and the addresses say so`, async ({ page }) => {
    const s = state();
    await signIn(page, s.users[role], s.password);
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Disputes' })).toHaveCount(0);
    await page.goto('/dashboard/disputes');
    await expect(page.getByRole('alert')).toContainText('You do not have access to Disputes');
    await expect(page.getByRole('table')).toHaveCount(0);
    await page.goto(`/dashboard/payments/${d.near.paymentId}`);
    await expect(page.getByRole('heading', { name: `Payment ${d.near.pspReference}` })).toBeVisible();
    await expect(page.getByText('UNDER_REVIEW')).toBeVisible(); // the payment's disputeStatus, for every role
    await expect(page.getByRole('list', { name: 'Disputes of this payment' })).toHaveCount(0);
    await page.goto(`/dashboard/disputes/${nearId}`);
    await expect(page.getByRole('alert')).toContainText('You do not have access to Disputes');
    await expect(page.getByText(d.near.pspReference)).toHaveCount(0);
  });
}
