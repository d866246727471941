import type { Page } from '@playwright/test';
import { expect, expectAccessible, screenshot, signIn, state, test } from './fixtures';

/**
 * The sidebar (docs/dashboard.md, "Navigation"): the areas in sections, each link shown only to the
 * roles that may use it, the current one marked; at 1024 px the sidebar stays and the page never
 * scrolls sideways: a wide table (the acquirer routes editor's above all) scrolls in its own box.
 */
const SECTIONS: [string, string[]][] = [
  ['Sales', ['Payments', 'Bills']],
  ['Money', ['Settlements', 'Payouts', 'Balances', 'Tips']],
  ['Risk', ['Disputes']],
  ['Set-up', ['Stores', 'Webhooks', 'API keys', 'Acquirer accounts', 'Users', 'Audit log']],
];

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

/** How far the page is wider than the window (0: it does not scroll sideways). */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const root = (globalThis as any).document.documentElement as { scrollWidth: number; clientWidth: number };
    return root.scrollWidth - root.clientWidth;
  });

test('ADMIN finds every area in its section, the current one marked', async ({ page }) => {
  const s = state();
  await signIn(page, s.users.ADMIN, s.password);
  await expect(nav(page).getByRole('heading')).toHaveText(SECTIONS.map(([title]) => title));
  for (const [title, links] of SECTIONS) {
    const list = nav(page).getByRole('list', { name: title });
    await expect(list.getByRole('link')).toHaveText(links);
    for (const name of links) await expect(list.getByRole('link', { name, exact: true })).toBeVisible();
  }
  await expect(nav(page).locator('[aria-current="page"]')).toHaveCount(0); // home: no area is current
  await nav(page).getByRole('link', { name: 'Payouts' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Payouts' })).toBeVisible();
  await expect(nav(page).getByRole('link', { name: 'Payouts' })).toHaveAttribute('aria-current', 'page');
  await expect(nav(page).locator('[aria-current="page"]')).toHaveCount(1);
  await expectAccessible(page);
  // A page under an area (a payment) keeps its area marked.
  await nav(page).getByRole('link', { name: 'Payments' }).click();
  await expect(nav(page).getByRole('link', { name: 'Payments' })).toHaveAttribute('aria-current', 'page');
  await expect(nav(page).getByRole('link', { name: 'Payouts' })).not.toHaveAttribute('aria-current', 'page');
});

test('USER sees the Sales section alone; OPERATIONS Sales and Set-up with Stores alone', async ({ page }) => {
  const s = state();
  await signIn(page, s.users.USER, s.password);
  await expect(nav(page).getByRole('heading')).toHaveText(['Sales']);
  await expect(nav(page).getByRole('link')).toHaveText(['Payments', 'Bills']);
  await nav(page).getByRole('link', { name: 'Bills', exact: true }).click();
  await expect(nav(page).getByRole('link', { name: 'Bills', exact: true })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByText('Loading…')).toHaveCount(0);
  await screenshot(page, 'navigation-user');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Sign out' }).click();

  await signIn(page, s.users.OPERATIONS, s.password);
  await expect(nav(page).getByRole('heading')).toHaveText(['Sales', 'Set-up']);
  await expect(nav(page).getByRole('list', { name: 'Set-up' }).getByRole('link')).toHaveText(['Stores']);
});

test('at 1024 px the sidebar stays, the page never scrolls sideways, and wide tables scroll in their own box', async ({ page }) => {
  const s = state();
  await page.setViewportSize({ width: 1024, height: 768 });
  await signIn(page, s.users.ADMIN, s.password);
  const pages: [string, string][] = [
    ['/dashboard/', 'Today'],
    ['/dashboard/payments', 'Payments'],
    ['/dashboard/bills', 'Bills'],
    ['/dashboard/settlements', 'Settlements'],
    ['/dashboard/payouts', 'Payouts'],
    ['/dashboard/balances', 'Balances'],
    ['/dashboard/disputes', 'Disputes'],
    ['/dashboard/stores', 'Stores'],
    ['/dashboard/webhooks', 'Webhooks'],
    ['/dashboard/api-keys', 'API keys'],
    ['/dashboard/users', 'Users'],
    ['/dashboard/audit-log', 'Audit log'],
  ];
  for (const [address, heading] of pages) {
    await page.goto(address);
    await expect(page.getByRole('heading', { level: 1, name: heading, exact: true })).toBeVisible();
    await expect(page.getByRole('table').first()).toBeVisible();
    const side = await nav(page).boundingBox();
    expect(side!.x, `${address}: the sidebar at the left`).toBeLessThan(1);
    expect(side!.width).toBeGreaterThan(120);
    expect(await overflow(page), `${address} scrolls sideways`).toBeLessThanOrEqual(0);
    if (address === '/dashboard/payments') {
      await screenshot(page, 'navigation-1024');
      await expectAccessible(page);
    }
  }

  // The acquirer routes editor with rules being written (not saved): its table scrolls in its box, the page does not.
  await page.goto('/dashboard/acquirer-accounts');
  const routes = page.getByRole('region', { name: 'Routes' });
  await routes.getByRole('button', { name: 'Add rule' }).click();
  await routes.getByRole('button', { name: 'Add rule' }).click();
  const rules = routes.getByRole('table', { name: 'Route rules' });
  await expect(rules.getByRole('row', { name: 'Rule 2' })).toBeVisible();
  await rules.getByRole('row', { name: 'Rule 1' }).getByLabel('Rule name').fill('Big tickets to the sandbox');
  expect(await overflow(page), 'the acquirer accounts page scrolls sideways').toBeLessThanOrEqual(0);
  const box = rules.locator('xpath=..');
  const { scrollWidth, clientWidth } = await box.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
  expect(clientWidth).toBeLessThanOrEqual(1024);
  if (scrollWidth > clientWidth) {
    // Scrolling: the box is a named region the keyboard reaches.
    await expect(page.getByRole('region', { name: 'Route rules (scrolls sideways)' })).toHaveAttribute('tabindex', '0');
  }
  await screenshot(page, 'navigation-1024-acquirer-routes');
  await expectAccessible(page);

  // Narrower than a tablet held upright: the sections stack above the page, which still does not scroll sideways.
  await page.setViewportSize({ width: 700, height: 900 });
  await page.goto('/dashboard/payments');
  await expect(page.getByRole('table', { name: 'Payments' })).toBeVisible();
  // Measured until the layout has settled after the viewport change (a busy machine lags behind it).
  await expect
    .poll(
      async () => {
        const side = (await nav(page).boundingBox())!;
        const main = (await page.getByRole('main').boundingBox())!;
        return side.y + side.height - main.y;
      },
      { message: 'the sections stack above the page' },
    )
    .toBeLessThanOrEqual(1);
  expect(await overflow(page), 'payments at 700 px scrolls sideways').toBeLessThanOrEqual(0);
  await expectAccessible(page);
});
