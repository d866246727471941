import { customerPays, expect, screenshot, signIn, state, takePayment, test, expectAccessible } from './fixtures';

/**
 * Stores and terminals as OPERATIONS runs them (docs/dashboard.md, "Stores and terminals (OPERATIONS, ADMIN)"): create, edit, deactivate and
 * delete a store and its terminal; the delete guard's refusal of a store that just took a payment,
 * explained on the page.
 */
test('OPERATIONS creates, edits, deactivates and deletes a store and its terminal', async ({ page, pageErrors }) => {
  pageErrors.allowRefusal(400); // the form's bad field, shown by name
  const s = state();
  await signIn(page, s.users.OPERATIONS, s.password);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Stores' }).click();
  const stores = page.getByRole('table', { name: 'Stores' });
  await expect(stores.getByRole('row').filter({ hasText: s.storeExternalId })).toContainText('Main Street');

  const name = `Harbour Kiosk ${Date.now()}`;
  await page.getByRole('button', { name: 'New store' }).click();
  const form = page.getByRole('form', { name: 'New store' });
  await form.getByLabel('Store name').fill(name);
  await form.getByLabel('City').fill('Hamburg');
  await form.getByLabel('Country').fill('XX');
  await form.getByLabel('Time zone').fill('Europe/Berlin');
  await form.getByLabel('Store mode').selectOption('test');
  await form.getByRole('button', { name: 'Create store' }).click();
  await expect(form.getByRole('alert')).toContainText('country'); // the API's 400 names the field
  await form.getByLabel('Country').fill('de');
  await form.getByRole('button', { name: 'Create store' }).click();
  const row = stores.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('DE');
  await expect(row).toContainText('test');
  await expect(row).toContainText('ACTIVE');
  await screenshot(page, 'stores');
  await expectAccessible(page);

  await row.getByRole('link', { name }).click();
  await expect(page.getByRole('heading', { name: `Store ${name}` })).toBeVisible();
  const actions = page.getByRole('group', { name: 'Store actions' });
  await actions.getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('form', { name: 'Edit store' }).getByLabel('Store name').fill(`${name} North`);
  await page.getByRole('button', { name: 'Save store' }).click();
  await expect(page.getByRole('heading', { name: `Store ${name} North` })).toBeVisible();

  await page.getByLabel('New terminal label').fill('Till 7');
  await page.getByLabel('New serial number').fill(`SN-${Date.now()}`);
  await page.getByRole('button', { name: 'Add terminal' }).click();
  const terminals = page.getByRole('table', { name: 'Terminals' });
  const till = terminals.getByRole('row').filter({ hasText: 'Till 7' });
  await expect(till).toContainText('ACTIVE');
  await expect(till).toContainText('no'); // no device linked yet
  await till.getByRole('button', { name: 'Deactivate' }).click();
  await expect(till).toContainText('INACTIVE');
  await screenshot(page, 'store-detail');
  await expectAccessible(page);
  await till.getByRole('button', { name: 'Delete' }).click();
  await till.getByRole('button', { name: 'Confirm delete' }).click();
  await expect(terminals).toContainText('No terminals yet.');

  await actions.getByRole('button', { name: 'Deactivate' }).click();
  await expect(page.getByRole('heading', { name: `Store ${name} North` })).toContainText('INACTIVE');
  await actions.getByRole('button', { name: 'Delete' }).click();
  await actions.getByRole('button', { name: 'Confirm delete' }).click();
  await expect(page).toHaveURL(/\/dashboard\/stores$/);
  await expect(stores.getByRole('row').filter({ hasText: name })).toHaveCount(0);
});

test('a store that just took a payment is not deleted, and the page says why', async ({ page, pageErrors }) => {
  pageErrors.allowRefusal(409); // the delete guard, explained
  const s = state();
  await takePayment(s, 3.2, `guard-${Date.now()}`);
  await customerPays(s);
  await signIn(page, s.users.ADMIN, s.password);
  await page.goto(`/dashboard/stores/${s.storeExternalId}`);
  await expect(page.getByRole('heading', { name: 'Store Main Street' })).toBeVisible();
  const actions = page.getByRole('group', { name: 'Store actions' });
  await actions.getByRole('button', { name: 'Delete' }).click();
  await actions.getByRole('button', { name: 'Confirm delete' }).click();
  const refusal = page.getByRole('alert', { name: 'Main Street not deleted' });
  await expect(refusal).toContainText('took payments in the last');
  await expect(refusal).toContainText('Deactivate it to stop new payments');
  await expect(refusal.getByRole('button', { name: 'Delete anyway' })).toBeVisible();
  await screenshot(page, 'stores-delete-guard');
  await refusal.getByRole('button', { name: 'Keep it' }).click();
  await expect(page.getByRole('table', { name: 'Terminals' })).toContainText('Till 1'); // still there
});
