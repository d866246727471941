import fs from 'node:fs';
import { configureDevice, customerPays, expect, expectAccessible, screenshot, signIn, state, takePayment, test } from './fixtures';

/**
 * FINANCE closes the store's batch (docs/dashboard.md, "Settlements (FINANCE, ADMIN)") from the dashboard: the payment just taken is in
 * its lines and totals, the batch is listed, and its lines download as CSV.
 */
test('FINANCE closes a batch by keyboard and reads its totals, lines and CSV', async ({ page }) => {
  const s = state();
  const payment = await takePayment(s, 21.75, `settle-${Date.now()}`);
  await customerPays(s);
  await signIn(page, s.users.FINANCE, s.password);
  await page.goto(`/dashboard/payments/${payment.id}`);
  await expect(page.getByRole('heading', { name: `Payment ${payment.pspReference}` })).toContainText('CAPTURED');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settlements' }).click();
  // The picker offers the stores with something to settle, by name; the keyboard alone closes.
  const picker = page.getByLabel('Store to close');
  await expect(picker.locator(`option[value="${s.storeExternalId}"]`)).toContainText(/Main Street \(test\): \d+ payments?/);
  await picker.focus();
  await picker.selectOption(s.storeExternalId);
  await expect(picker).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Close batch' })).toBeFocused();
  // A slow acquirer (each answer 3 s late) keeps the close running long enough to watch it.
  await configureDevice(s, { latencyMs: 3000 });
  try {
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status', { name: 'Closes in progress' })).toContainText(/Closing Main Street: \d+ payments? claimed/);
    await screenshot(page, 'settlement-closing');
    // It ends on the batch.
    await expect(page).toHaveURL(/\/dashboard\/settlements\/[0-9a-f-]{36}$/);
  } finally {
    await configureDevice(s, { latencyMs: 0 });
  }
  const heading = page.getByRole('heading', { name: 'Batch Main Street' });
  await expect(heading).toContainText(/SETTLED|DISCREPANCY/);
  const lines = page.getByRole('table', { name: 'Lines' });
  const line = lines.getByRole('row').filter({ hasText: payment.pspReference });
  await expect(line).toContainText('PAYMENT');
  await expect(line).toContainText('€21.75');
  await expect(line).toContainText('€0.40'); // the sandbox's fee: 1.40 % + 0.10, rounded half up
  await expect(page.getByRole('table', { name: 'Totals' })).toContainText('EUR');
  // The fee audit (docs/payouts-and-fees.md): expected against charged fees; no cost contract here, so the charged fee stands.
  await expect(page.getByRole('table', { name: 'Totals' }).getByRole('columnheader')).toContainText(['Fees', 'Expected fees', 'Over contract']);
  await expect(page.getByRole('table', { name: 'Totals' }).getByRole('row').nth(1)).toContainText('€0.00');
  await expect(lines.getByRole('columnheader', { name: 'Expected fee' })).toBeVisible();
  await screenshot(page, 'settlement-batch');
  await expectAccessible(page);

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
  const csv = fs.readFileSync((await download.path())!, 'utf8');
  expect(csv.split(/\r?\n/)[0]).toBe(
    'type,paymentId,pspReference,reference,amount,feeAmount,netAmount,currency,occurredAt,acquirerAccountId,expectedFeeAmount,disputeId,acquirerDisputeId,tipAmount',
  );
  expect(csv).toContain(payment.pspReference);

  // Nothing left to settle: the store is no longer offered.
  await page.getByRole('link', { name: '← Settlements' }).click();
  await expect(page.getByLabel('Store to close').locator(`option[value="${s.storeExternalId}"]`)).toHaveCount(0);
  const batches = page.getByRole('table', { name: 'Settlement batches' });
  await expect(batches.getByRole('row').filter({ hasText: 'Main Street' }).first()).toContainText(s.users.FINANCE);
  // Fees against contract over the batches listed (no contract here: charged counts as expected, nothing over).
  const audit = page.getByRole('table', { name: 'Fees against contract' });
  await expect(audit.getByRole('columnheader')).toContainText(['Currency', 'Batches', 'Charged', 'Contract', 'Over contract']);
  await expect(audit.getByRole('row').filter({ hasText: 'EUR' })).toContainText('€0.00');
  await screenshot(page, 'settlements');
  await expectAccessible(page);

  // The payment is settled now.
  await page.goto(`/dashboard/payments/${payment.id}`);
  await expect(page.getByRole('heading', { name: `Payment ${payment.pspReference}` })).toContainText('SETTLED');
});
