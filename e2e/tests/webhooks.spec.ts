import { expect, screenshot, signIn, state, test, expectAccessible } from './fixtures';

/**
 * Webhook destinations as ADMIN manages them (docs/dashboard.md, "Webhooks (ADMIN)"): the signing secret shown once, a test
 * event delivered and its attempt, redelivery, deletion.
 */
test('ADMIN creates a destination, sees the secret once, sends a test event and redelivers it', async ({ page }) => {
  const s = state();
  await signIn(page, s.users.ADMIN, s.password);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
  const destinations = page.getByRole('table', { name: 'Webhook destinations' });
  await expect(destinations).toContainText('till receiver'); // the seeded one

  const form = page.getByRole('form', { name: 'New destination' });
  const description = `e2e ${Date.now()}`;
  await form.getByLabel('Destination URL').fill(s.receiverUrl);
  await form.getByLabel('Description').fill(description);
  await form.getByLabel('Destination mode').selectOption('test');
  await form.getByLabel('PAYMENT_CAPTURED').check();
  await form.getByRole('button', { name: 'Create destination' }).click();
  const once = page.getByRole('status').filter({ hasText: 'shown only once' });
  await expect(once.getByTestId('secret-once')).toHaveText(/^whsec_\w+$/);
  const secret = (await once.getByTestId('secret-once').textContent())!;
  await once.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText(secret)).toHaveCount(0); // never shown again

  const row = destinations.getByRole('row').filter({ hasText: description });
  await expect(row).toContainText('PAYMENT_CAPTURED');
  await row.getByRole('button', { name: 'Send test event' }).click();
  const deliveries = page.getByRole('table', { name: 'Deliveries' });
  const delivery = deliveries.getByRole('row').filter({ hasText: 'TEST' });
  await expect(delivery).toContainText('DELIVERED');
  await delivery.getByRole('button', { name: 'Attempts' }).click();
  const attempts = page.getByRole('table', { name: 'Attempts' });
  await expect(attempts.getByRole('row')).toHaveCount(2); // header and the one attempt
  await expect(attempts).toContainText('204');
  await delivery.getByRole('button', { name: 'Redeliver' }).click();
  await expect(attempts.getByRole('row')).toHaveCount(3);
  await expect(delivery).toContainText('2'); // attempts continue the numbering
  await screenshot(page, 'webhooks');
  await expectAccessible(page);

  await row.getByRole('button', { name: 'Delete' }).click();
  await row.getByRole('button', { name: 'Confirm delete' }).click();
  await expect(destinations.getByRole('row').filter({ hasText: description })).toHaveCount(0);
});
