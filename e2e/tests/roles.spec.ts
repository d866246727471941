import { totpCode } from '../../test/users/helpers';
import { deleteSession } from '@in-store-payments/client';
import { expect, expectAccessible, pageSessionToken, screenshot, serviceHas, sessionClient, signIn, state, test } from './fixtures';

/**
 * What each role sees (docs/dashboard.md; docs/users-and-keys.md, "Roles"): the navigation names exactly the areas the role
 * may use; an area opened by address without the role says so and shows none of its data.
 */
const ALL = [
  'Payments',
  'Bills',
  'Settlements',
  'Payouts',
  'Balances',
  'Tips',
  'Disputes',
  'Stores',
  'Webhooks',
  'API keys',
  'Acquirer accounts',
  'Users',
  'Audit log',
];
/** In the sidebar's order (docs/dashboard.md, "Navigation"). */
const SEES: Record<string, string[]> = {
  ADMIN: ALL,
  FINANCE: ['Payments', 'Bills', 'Settlements', 'Payouts', 'Balances', 'Tips', 'Disputes'],
  OPERATIONS: ['Payments', 'Bills', 'Stores'],
  COMPLIANCE: ['Payments', 'Bills', 'Disputes', 'Audit log'],
  USER: ['Payments', 'Bills'],
};
const ADDRESS: Record<string, string> = {
  Payments: '/dashboard/payments',
  Bills: '/dashboard/bills',
  Stores: '/dashboard/stores',
  Webhooks: '/dashboard/webhooks',
  Settlements: '/dashboard/settlements',
  Payouts: '/dashboard/payouts',
  Balances: '/dashboard/balances',
  Tips: '/dashboard/tips',
  Users: '/dashboard/users',
  'API keys': '/dashboard/api-keys',
  'Audit log': '/dashboard/audit-log',
  'Acquirer accounts': '/dashboard/acquirer-accounts',
  Disputes: '/dashboard/disputes',
};

/** The pages other journeys do not photograph, for docs/dashboard.md. */
const SHOT: Record<string, string> = { Users: 'users', 'API keys': 'api-keys', 'Audit log': 'audit-log' };

for (const role of Object.keys(SEES)) {
  test(`${role} sees exactly its areas, and is told so at any other address`, async ({ page }) => {
    const s = state();
    await signIn(page, s.users[role as keyof typeof s.users], s.password);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link')).toHaveText(SEES[role]!);
    await expect(page.getByRole('heading', { name: 'Today' })).toBeVisible();
    if (role === 'ADMIN') {
      await page.mouse.move(0, 0); // no chart tooltip under the pointer left by Sign in
      await screenshot(page, 'home');
    }
    if (role === 'ADMIN') await expectAccessible(page);
    // Each area it may use opens by address, with its data and no refusal (Tips once the service has its report).
    const tips = await serviceHas(s, 'get', '/api/dashboard/tips');
    for (const name of SEES[role]!.filter((n) => tips || n !== 'Tips')) {
      await page.goto(ADDRESS[name]!);
      await expect(page.getByRole('heading', { level: 1, name, exact: true })).toBeVisible();
      await expect(page.getByRole('table').first()).toBeVisible();
      await expect(page.getByText(`You do not have access to ${name}`)).toHaveCount(0);
      if (role === 'ADMIN' && SHOT[name]) await screenshot(page, SHOT[name]);
      if (role === 'ADMIN' || (role === 'FINANCE' && name === 'Settlements')) await expectAccessible(page);
    }
    for (const name of ALL.filter((n) => !SEES[role]!.includes(n))) {
      await page.goto(ADDRESS[name]!);
      const denied = page.getByRole('alert');
      await expect(denied).toContainText(`You do not have access to ${name}`);
      await expect(page.getByRole('table')).toHaveCount(0); // none of the area's data
      if (role === 'USER' && name === 'Users') await screenshot(page, 'no-access');
    }
  });
}

test('a wrong password keeps the user on the sign-in page with the reason; the keyboard alone signs in', async ({ page, pageErrors }) => {
  const s = state();
  pageErrors.allowRefusal(401); // the wrong password
  await page.goto('/dashboard/payments');
  await expect(page).toHaveURL(/\/dashboard\/sign-in$/); // no session: sign in first
  await expectAccessible(page);
  // Keyboard only: the page opens on Username, Tab reaches Password, Enter sends the form.
  await expect(page.getByLabel('Username')).toBeFocused();
  await page.keyboard.type(s.users.USER);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.type('not-the-password-1');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toContainText('invalid');
  await screenshot(page, 'sign-in');
  await expectAccessible(page);
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  await page.keyboard.press('Shift+Tab'); // the focus stays in the form: back to Password after the alert
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(s.password);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
});

test('an ended session returns to sign-in, and the token was never in an address', async ({ page, pageErrors }) => {
  const s = state();
  pageErrors.allowRefusal(401); // the refresh after the session ended
  const addresses: string[] = [];
  page.on('request', (r) => addresses.push(r.url()));
  await signIn(page, s.users.FINANCE, s.password);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Payments' }).click();
  await expect(page.getByRole('table', { name: 'Payments' })).toBeVisible();
  const token = await pageSessionToken(page);
  expect(token).toBeTruthy();
  expect(addresses.filter((a) => a.includes(token!))).toEqual([]);
  expect((await deleteSession({ client: sessionClient(s, token) })).response.status).toBe(204);
  await expect(page).toHaveURL(/\/dashboard\/sign-in$/, { timeout: 30_000 }); // the list's next refresh is refused
  await expect(page.getByText('Your session has ended')).toBeVisible();
});

test('authenticator enrolment by QR code, then sign-in asks for the Authentication code', async ({ page, pageErrors }) => {
  const s = state();
  pageErrors.allowRefusal(401); // the password alone, answered: an authentication code is needed
  await signIn(page, s.mfaUser, s.password);
  await page.getByRole('link', { name: s.mfaUser }).click();
  await page.getByRole('button', { name: 'Set up authenticator' }).click();
  await expect(page.getByRole('img', { name: 'Authenticator QR code' })).toBeVisible();
  await screenshot(page, 'mfa-enrolment');
  await expectAccessible(page);
  const secret = (await page.getByTestId('mfa-secret').textContent())!;
  await page.getByLabel('Authentication code').fill(totpCode(secret));
  await page.getByRole('button', { name: 'Verify and turn on' }).click();
  await expect(page.getByText('Authenticator', { exact: true }).locator('..')).toContainText('On');
  await page.getByRole('button', { name: 'Sign out' }).click();

  await page.getByLabel('Username').fill(s.mfaUser);
  await page.getByLabel('Password').fill(s.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const code = page.getByLabel('Authentication code');
  await expect(code).toBeVisible();
  await screenshot(page, 'sign-in-mfa');
  // The enrolment's code is used; the next step's code is as an authenticator would show it shortly.
  await code.fill(totpCode(secret, 1));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
});
