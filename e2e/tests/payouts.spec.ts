import fs from 'node:fs';
import { closeSettlementBatch, createAcquirerAccount } from '@in-store-payments/client';
import { customerPays, expect, pageSessionToken, screenshot, sessionClient, signIn, state, takePayment, test, expectAccessible } from './fixtures';

/**
 * Money after settlement (docs/dashboard.md, "Payouts and Balances (FINANCE, ADMIN)") as FINANCE and ADMIN see it: a closed batch paid out by the
 * sandbox and reconciled on *Payouts*, the batches it pays, the CSV export, *Balances*; ADMIN's
 * cost contract on the account's row.
 */
test('FINANCE follows a batch into its payout, reconciled, and reads the balances', async ({ page }) => {
  const s = state();
  await takePayment(s, 33.5, `payout-${Date.now()}`);
  await customerPays(s);
  await signIn(page, s.users.FINANCE, s.password);
  const closed = await closeSettlementBatch({ client: sessionClient(s, await pageSessionToken(page)), body: { storeExternalId: s.storeExternalId } });
  expect(closed.response.status, JSON.stringify(closed.data)).toBe(201);
  const batchId = closed.data.id;

  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Payouts' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Payouts' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Payouts' });
  // The sandbox pays the report out at once; the payout's workflow records and reconciles it.
  await expect(async () => {
    await page.reload();
    await expect(table.getByRole('row').nth(1)).toContainText('PAID', { timeout: 1000 });
    await expect(table.getByRole('row').nth(1)).toContainText('Reconciled', { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await screenshot(page, 'payouts');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  const csv = fs.readFileSync((await download.path())!, 'utf8');
  expect(csv.split(/\r?\n/)[0]).toBe(
    'id,acquirerAccountId,acquirerPayoutId,status,amount,currency,arrivalDate,expectedAmount,reconciled,batchIds,failureReason,createdAt',
  );
  expect(csv).toContain(batchId);

  await table.getByRole('row').nth(1).getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('PAID');
  await expect(page.getByRole('list', { name: 'Batches it pays' })).toContainText(batchId);
  await screenshot(page, 'payout');
  await expectAccessible(page);

  await nav.getByRole('link', { name: 'Balances' }).click();
  const balances = page.getByRole('table', { name: 'Balances' });
  await expect(balances.getByRole('row').filter({ hasText: 'installation default' }).filter({ hasText: 'EUR' })).toBeVisible();
  await expect(balances.getByRole('columnheader')).toContainText(['Account', 'Currency', 'Settled, not paid out', 'In transit', 'Paid out (30 days)']);
  await screenshot(page, 'balances');
  await expectAccessible(page);
});

test('ADMIN saves a cost contract on an account: version 1 in force; a bad percent is refused in words', async ({ page, pageErrors }) => {
  pageErrors.allowRefusal(400); // the bad percent, in words
  pageErrors.allowRefusal(404); // no cost contract in force yet
  const s = state();
  await signIn(page, s.users.ADMIN, s.password);
  const name = `Fees ${Date.now().toString(36)}`;
  const created = await createAcquirerAccount({
    client: sessionClient(s, await pageSessionToken(page)),
    body: { name, acquirer: 'sandbox', mode: 'test', merchantAccountId: `MID-FEES-${Date.now().toString(36)}`, credentials: {} },
  });
  expect(created.response.status).toBe(201);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Acquirer accounts' }).click();
  const row = page.getByRole('table', { name: 'Acquirer accounts' }).getByRole('row').filter({ hasText: name });
  await row.getByRole('button', { name: 'Cost contract' }).click();
  const form = page.getByRole('form', { name: `Cost contract of ${name}` });
  await expect(form.getByLabel('Contract in force')).toContainText('No cost contract in EUR');
  const line = form.getByRole('group', { name: 'Line 1' });
  await line.getByLabel('Percent').fill('140');
  await line.getByLabel('Fixed').fill('0.10');
  await form.getByRole('button', { name: 'Save cost contract' }).click();
  await expect(form.getByRole('alert')).toContainText('lines[0].percent: must be at most 100');
  await line.getByLabel('Percent').fill('1.4');
  await form.getByRole('button', { name: 'Save cost contract' }).click();
  await expect(form.getByLabel('Contract in force')).toContainText('Version 1 in force');
  await expect(form.getByLabel('Contract in force')).toContainText('CARD 1.4 % + 0.1');
  await screenshot(page, 'cost-contract');
  await expectAccessible(page);

  // Payouts name the business's accounts: the filter picks one by name, not by its id. (The
  // account was made through the API, not the page, so the page learns its name on a new load.)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Payouts' }).click();
  await page.reload();
  await expect(page.getByLabel('Account').locator('option', { hasText: `${name} (test)` })).toHaveCount(1);
});
