import type { Page } from '@playwright/test';
import { cancelPayment, getAcquirerRoutes } from '@in-store-payments/client';
import { expect, pageSessionToken, posClient, screenshot, sessionClient, signIn, state, takePayment, test, expectAccessible } from './fixtures';

/**
 * Acquirer accounts and routes as ADMIN manages them (docs/dashboard.md, "Acquirer accounts (ADMIN)"): accounts added with their MID
 * and credentials shown masked; the test-mode routes saved (version 1) and a payment routed by
 * them, its page naming the account and the rule; a refused field shown at its input. The routes
 * are emptied again at the end, so that the other journeys' payments go to the installation
 * default as before.
 */
test.describe.configure({ mode: 'serial' });

const tag = Date.now().toString(36);
const sandbox = { name: `Sandbox test ${tag}`, mid: `MID-SBX-${tag}` };

async function openArea(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Acquirer accounts' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Acquirer accounts' })).toBeVisible();
}

async function testRoutes(page: Page) {
  const routes = page.getByRole('region', { name: 'Routes' });
  await routes.getByRole('group', { name: 'Routes mode' }).getByRole('button', { name: 'Test', exact: true }).click();
  await expect(routes.getByRole('form', { name: 'Routes of test payments' })).toBeVisible();
  return routes;
}

/** The version of the routes in force, as the page shows it. */
const versionOf = (routes: ReturnType<Page['getByRole']>) =>
  routes.getByLabel('Routes version').getByText('Version', { exact: true }).locator('..').locator('dd');

const accountChoice = (a: { name: string; mid: string }) => `${a.name} (sandbox, ${a.mid})`;

test('ADMIN adds a sandbox test account and sees it listed with its MID; credentials only masked', async ({ page }) => {
  const s = state();
  await signIn(page, s.users.ADMIN, s.password);
  await openArea(page);

  const form = page.getByRole('form', { name: 'New acquirer account' });
  await form.getByLabel('Account name').fill(sandbox.name);
  await form.getByLabel('Acquirer').selectOption('sandbox');
  await form.getByLabel('Account mode').selectOption('test');
  await form.getByLabel('Merchant account ID').fill(sandbox.mid);
  await expect(form).toContainText('The sandbox needs no credentials.');
  await form.getByRole('button', { name: 'Add account' }).click();

  const added = page.getByRole('status', { name: 'Account added' });
  await expect(added).toContainText(`Account ${sandbox.name} added.`);
  await expect(added).toContainText(sandbox.mid);
  await expect(added).toContainText(/\/internal\/acquirer\/[^/]+\/notifications/);
  const accounts = page.getByRole('table', { name: 'Acquirer accounts' });
  const row = accounts.getByRole('row').filter({ hasText: sandbox.name });
  await expect(row).toContainText(sandbox.mid);
  await expect(row).toContainText('sandbox');
  await expect(row).toContainText('test');
  await expect(row).toContainText('ACTIVE');
  await added.getByRole('button', { name: 'Done' }).click();

  // A Stripe test account: its credentials come back masked, never as typed.
  const stripe = { name: `Stripe test ${tag}`, mid: `acct_e2e${tag}`, apiKey: `sk_test_e2e${tag}Key1234`, webhookSecret: `whsec_e2e${tag}Sig9876` };
  await form.getByLabel('Account name').fill(stripe.name);
  await form.getByLabel('Acquirer').selectOption('stripe');
  await form.getByLabel('Account mode').selectOption('test');
  await form.getByLabel('Merchant account ID').fill(stripe.mid);
  await form.getByLabel('Stripe API key').fill(stripe.apiKey);
  await form.getByLabel('Stripe webhook signing secret').fill(stripe.webhookSecret);
  await form.getByRole('button', { name: 'Add account' }).click();
  await expect(page.getByRole('status', { name: 'Account added' })).toContainText('••••1234');
  const stripeRow = accounts.getByRole('row').filter({ hasText: stripe.name });
  await expect(stripeRow).toContainText('apiKey ••••1234');
  await expect(stripeRow).toContainText('webhookSecret ••••9876');
  await expect(page.getByText(stripe.apiKey)).toHaveCount(0);
  await expect(page.getByText(stripe.webhookSecret)).toHaveCount(0);
  await screenshot(page, 'acquirer-accounts');

  // Rename, deactivate and activate again.
  await stripeRow.getByRole('button', { name: 'Rename' }).click();
  await stripeRow.getByLabel('New name').fill(`${stripe.name} renamed`);
  await stripeRow.getByRole('button', { name: 'Save name' }).click();
  const renamed = accounts.getByRole('row').filter({ hasText: `${stripe.name} renamed` });
  await renamed.getByRole('button', { name: 'Deactivate' }).click();
  await expect(renamed).toContainText('INACTIVE');
  await renamed.getByRole('button', { name: 'Activate' }).click();
  await expect(renamed).toContainText('ACTIVE');
  // New credentials replace the old ones.
  await renamed.getByRole('button', { name: 'Rotate credentials' }).click();
  await renamed.getByLabel('Stripe API key').fill(`sk_test_e2e${tag}Key5678`);
  await renamed.getByLabel('Stripe webhook signing secret').fill(`whsec_e2e${tag}Sig4321`);
  await renamed.getByRole('button', { name: 'Replace credentials' }).click();
  await expect(renamed).toContainText('apiKey ••••5678');
  await expect(renamed).toContainText('webhookSecret ••••4321');
  // Delete (no route names it).
  await renamed.getByRole('button', { name: 'Delete' }).click();
  await renamed.getByRole('button', { name: 'Confirm delete' }).click();
  await expect(accounts.getByRole('row').filter({ hasText: stripe.name })).toHaveCount(0);
});

test('ADMIN saves a test-mode route naming it, sees version 1, and a payment goes by it', async ({ page, pageErrors }) => {
  pageErrors.allowRefusal(409); // deleting or deactivating the routed account, with the reason
  const s = state();
  await signIn(page, s.users.ADMIN, s.password);
  await openArea(page);
  const routes = await testRoutes(page);
  await expect(routes).toContainText('No routes saved for test payments yet');

  await routes.getByRole('button', { name: 'Add rule' }).click();
  const rule = routes.getByRole('row', { name: 'Rule 1', exact: true });
  await rule.getByLabel('Rule name').fill('main street cards');
  await rule.getByLabel('Account').selectOption({ label: accountChoice(sandbox) });
  await rule.getByLabel('Stores').selectOption(s.storeExternalId);
  await rule.getByLabel('Currencies').fill('eur');
  await rule.getByLabel('CARD').check();
  await rule.getByLabel('Min amount').fill('7');
  await rule.getByLabel('Max amount').fill('7.77');
  await routes.getByRole('button', { name: 'Add rule' }).click();
  const second = routes.getByRole('row', { name: 'Rule 2', exact: true });
  await second.getByLabel('Rule name').fill('anything else');
  await second.getByLabel('Account').selectOption({ label: accountChoice(sandbox) });
  // Reorder: the catch-all first, then back below the narrow rule.
  await second.getByRole('button', { name: 'Move up' }).click();
  await expect(routes.getByRole('row', { name: 'Rule 1', exact: true }).getByLabel('Rule name')).toHaveValue('anything else');
  await routes.getByRole('row', { name: 'Rule 1', exact: true }).getByRole('button', { name: 'Move down' }).click();
  await expect(routes.getByRole('row', { name: 'Rule 1', exact: true }).getByLabel('Rule name')).toHaveValue('main street cards');
  await routes.getByRole('row', { name: 'Rule 2', exact: true }).getByRole('button', { name: 'Remove' }).click();
  await expect(routes.getByRole('row', { name: 'Rule 2', exact: true })).toHaveCount(0);
  await routes.getByLabel('Default account').selectOption({ label: accountChoice(sandbox) });
  await routes.getByRole('button', { name: 'Save routes' }).click();

  await expect(versionOf(routes)).toHaveText('1');
  await expect(routes.getByLabel('Routes version')).toContainText(s.users.ADMIN);
  await expect(routes.getByRole('row', { name: 'Rule 1', exact: true }).getByLabel('Currencies')).toHaveValue('EUR');
  await screenshot(page, 'acquirer-routes');
  await expectAccessible(page);

  // The API answers the same routes.
  const { data: saved } = await getAcquirerRoutes({ client: sessionClient(s, await pageSessionToken(page)), query: { mode: 'test' } });
  expect(saved).toMatchObject({
    version: 1,
    rules: [
      {
        name: 'main street cards',
        match: { storeExternalIds: [s.storeExternalId], currencies: ['EUR'], paymentModes: ['CARD'], minAmount: 7, maxAmount: 7.77 },
      },
    ],
  });
  const accountId = saved.rules[0].accountId;
  expect(saved.defaultAccountId).toBe(accountId);

  // A payment of 7.5 EUR in that store goes by the rule; its page names the account and the rule.
  const payment = await takePayment(s, 7.5, `routed-${tag}`);
  const cancelled = await cancelPayment({ client: posClient(s), path: { id: payment.id } });
  expect(cancelled.response.status, JSON.stringify(cancelled.data)).toBe(200);
  await page.goto(`/dashboard/payments/${payment.id}`);
  await expect(page.getByRole('heading', { name: `Payment ${payment.pspReference}` })).toContainText('CANCELLED');
  const field = (label: string) => page.getByText(label, { exact: true }).locator('..');
  await expect(field('Acquirer account')).toContainText(sandbox.name);
  await expect(field('Acquirer account')).toContainText(sandbox.mid);
  await expect(field('Acquirer')).toContainText('sandbox');
  await expect(field('Route rule')).toContainText('main street cards');
  await screenshot(page, 'payment-acquirer');

  // An account a route names is kept: the refusal is explained.
  await openArea(page);
  const row = page.getByRole('table', { name: 'Acquirer accounts' }).getByRole('row').filter({ hasText: sandbox.name });
  await row.getByRole('button', { name: 'Delete' }).click();
  await row.getByRole('button', { name: 'Confirm delete' }).click();
  const refusal = page.getByRole('alert', { name: `${sandbox.name} not deleted` });
  await expect(refusal).toContainText('was not deleted');
  await screenshot(page, 'acquirer-account-delete-refused');
  await refusal.getByRole('button', { name: 'Keep it' }).click();
  await row.getByRole('button', { name: 'Deactivate' }).click();
  await expect(row.getByRole('alert')).toContainText('409');
  await expect(row).toContainText('ACTIVE');
});

test('a route with a bad field shows the reason at that field', async ({ page, pageErrors }) => {
  pageErrors.allowRefusal(400); // shown at the row's field
  const s = state();
  await signIn(page, s.users.ADMIN, s.password);
  await openArea(page);
  const routes = await testRoutes(page);
  await expect(routes.getByRole('row', { name: 'Rule 1', exact: true }).getByLabel('Rule name')).toHaveValue('main street cards');

  await routes.getByRole('button', { name: 'Add rule' }).click();
  const bad = routes.getByRole('row', { name: 'Rule 2', exact: true });
  await bad.getByLabel('Rule name').fill('large tickets');
  await bad.getByLabel('Account').selectOption({ label: accountChoice(sandbox) });
  await bad.getByLabel('Min amount').fill('500');
  await bad.getByLabel('Max amount').fill('100');
  await routes.getByRole('button', { name: 'Save routes' }).click();

  const min = bad.getByLabel('Min amount');
  await expect(min).toHaveAttribute('aria-invalid', 'true');
  await expect(min).toHaveAccessibleDescription(/must be at most maxAmount/);
  await expect(routes.getByRole('alert').filter({ hasText: 'rules[1].match.minAmount' })).toBeVisible();
  await expect(routes.getByRole('row', { name: 'Rule 1', exact: true }).getByLabel('Min amount')).toHaveAttribute('aria-invalid', 'false');
  await expect(versionOf(routes)).toHaveText('1'); // nothing saved
  await screenshot(page, 'acquirer-routes-error');

  // Correcting the field clears its reason; the same rule name twice is refused at the second.
  await min.fill('50');
  await expect(min).toHaveAttribute('aria-invalid', 'false');
  await bad.getByLabel('Rule name').fill('main street cards');
  await routes.getByRole('button', { name: 'Save routes' }).click();
  await expect(bad.getByLabel('Rule name')).toHaveAccessibleDescription(/rule names are unique/);

  // Empty the routes again: the other journeys' payments go to the installation default.
  await bad.getByRole('button', { name: 'Remove' }).click();
  await routes.getByRole('row', { name: 'Rule 1', exact: true }).getByRole('button', { name: 'Remove' }).click();
  await routes.getByLabel('Default account').selectOption({ label: 'None (installation default)' });
  await routes.getByRole('button', { name: 'Save routes' }).click();
  await expect(versionOf(routes)).toHaveText('2');
  await expect(routes).toContainText('No rules');
});
