import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { getTransaction } from '@in-store-payments/client';
import { callJson, customerPays, expect, expectAccessible, posClient, screenshot, serviceHas, signIn, state, test, type E2EState } from './fixtures';

/**
 * Tips in the dashboard (docs/dashboard.md, "Tips"): a café whose store asks for a tip on the
 * terminal; the customer chooses 15 % on a 40.00 bill, the POS adds a tip it already knows to
 * another, a third is taken without a cashier and a fourth without a tip. FINANCE reads the day
 * per cashier, the chart's figures in words, and downloads the CSV. Runs once the service has the
 * tips report (GET /api/dashboard/tips).
 */
const root = path.resolve(__dirname, '..', '..');

/** The API as the POS calls it, in the words of the API description (the request carries the tip fields). */
async function pos(s: E2EState, method: string, apiPath: string, body: unknown): Promise<any> {
  const res = await callJson(method, `${s.apiUrl}${apiPath}`, body, { 'X-API-Key': s.key });
  expect(res.status, `${method} ${apiPath}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body;
}

/** A store that asks for tips, with a terminal linked to its own sandbox device (the operator's terminal:link). */
async function tippingStore(s: E2EState, tag: string): Promise<{ storeExternalId: string; terminalExternalId: string; deviceId: string; name: string }> {
  const name = `Tip Café ${tag}`;
  const store = await pos(s, 'POST', `/api/merchants/${s.merchantExternalId}/stores`, {
    name,
    country: 'DE',
    timezone: 'Europe/Berlin',
    defaultCurrency: 'EUR',
    tipping: { enabled: true, percentages: [10, 15, 20], allowCustom: true },
  });
  expect(store.tipping).toEqual({ enabled: true, percentages: [10, 15, 20], allowCustom: true });
  const terminal = await pos(s, 'POST', `/api/merchants/${s.merchantExternalId}/stores/${store.externalId}/terminals`, {
    label: 'Counter',
    terminalType: 'POS',
  });
  const deviceId = `e2e-${tag}-counter`;
  execFileSync(
    process.execPath,
    [
      require.resolve('tsx/cli'),
      path.join(root, 'src/cli/admin.ts'),
      'terminal:link',
      '--merchant',
      s.merchantExternalId,
      '--store',
      store.externalId,
      '--terminal',
      terminal.externalId,
      '--device',
      deviceId,
      '--json',
    ],
    { cwd: root, env: { ...process.env, DATABASE_URL: s.databaseUrl, DATA_DIR: s.dataDir, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return { storeExternalId: store.externalId, terminalExternalId: terminal.externalId, deviceId, name };
}

test('FINANCE reads the day’s tips per cashier, as a chart and in words, and downloads them as CSV', async ({ page }) => {
  const s = state();
  test.skip(!(await serviceHas(s, 'get', '/api/dashboard/tips')), 'the tips report (issue 40) is not in this build yet');
  const tag = String(Date.now());
  const cafe = await tippingStore(s, tag);
  const ann = `ann-${tag}`;
  const ben = `ben-${tag}`;

  /** One payment at the café's counter, paid by the customer (`chosen`: the tip chosen on the device), captured before the next. */
  async function sale(body: Record<string, unknown>, chosen?: number): Promise<void> {
    const created = await pos(s, 'POST', '/api/in-store/payments', {
      merchantExternalId: s.merchantExternalId,
      storeExternalId: cafe.storeExternalId,
      terminalExternalId: cafe.terminalExternalId,
      currency: 'EUR',
      reference: `tip-${tag}-${Math.random().toString(36).slice(2, 8)}`,
      ...body,
    });
    await customerPays(s, { deviceId: cafe.deviceId, ...(chosen !== undefined ? { tipAmount: chosen } : {}) });
    // The terminal takes one bill at a time.
    await expect.poll(async () => (await getTransaction({ client: posClient(s), path: { id: created.id } })).data.status).toBe('CAPTURED');
  }
  await sale({ amount: 40, tip: 'ASK', cashierId: ann }, 6); // 15 % of 40.00, chosen on the terminal
  await sale({ amount: 12, cashierId: ann }); // no tip: counted, nothing tipped
  await sale({ amount: 20, tipAmount: 2.5, cashierId: ben }); // the POS knew the tip
  await sale({ amount: 10, tipAmount: 1 }); // nobody at the till named

  await signIn(page, s.users.FINANCE, s.password);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tips' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Tips' })).toBeVisible();
  // Today's business date where the café is.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date());
  // The café's payments are test money (the run's key is a test key): the report shows one mode at a time.
  await page.getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'Test', exact: true }).click();
  await expect(page).toHaveURL(/mode=test/);
  await page.getByLabel('From business date').fill(today);
  // `to` is exclusive, as on every list (docs/tips.md): the day after.
  const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel('To business date').fill(tomorrow);
  await page.getByLabel('Store', { exact: true }).selectOption(cafe.storeExternalId);
  await page.getByRole('combobox', { name: 'Currency', exact: true }).selectOption('EUR');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(new RegExp(`storeExternalId=${cafe.storeExternalId}`));
  await expect(page).toHaveURL(new RegExp(`from=${today}&to=${tomorrow}`));
  await expect(page).toHaveURL(/mode=test/); // the filters keep the mode chosen

  const table = page.getByRole('table', { name: 'Tips', exact: true });
  const row = (text: string) => table.getByRole('row').filter({ hasText: text });
  await expect(row(ann)).toContainText(cafe.name);
  await expect(row(ann).getByRole('cell').nth(4)).toHaveText('2');
  await expect(row(ann).getByRole('cell').nth(5)).toHaveText('€6.00');
  await expect(row(ben).getByRole('cell').nth(5)).toHaveText('€2.50');
  await expect(row('No cashier').getByRole('cell').nth(4)).toHaveText('1');
  await expect(row('No cashier').getByRole('cell').nth(5)).toHaveText('€1.00');

  // The chart of tips per day, and its text alternative: the same figures in words and as a table.
  const chart = page.getByRole('figure', { name: 'Tips per day, EUR' });
  await expect(chart).toContainText(`On ${today}: €9.50 in tips on 4 payments`);
  await chart.getByText('Tips per day, EUR as a table').click();
  await expect(chart.getByRole('table', { name: 'Tips per day, EUR' }).getByRole('row').nth(1)).toContainText('€9.50');
  await screenshot(page, 'tips');
  await expectAccessible(page);

  // Download CSV: the same rows with the API's exact values (ids, not names).
  const link = page.getByRole('link', { name: 'Download CSV' });
  await expect(link).toHaveAttribute('href', /\/api\/dashboard\/tips\?.*format=csv/);
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const [header, ...lines] = fs
    .readFileSync((await download.path())!, 'utf8')
    .trim()
    .split(/\r?\n/);
  const columns = header!.split(',');
  expect([...columns].sort()).toEqual(['businessDate', 'cashierId', 'count', 'currency', 'storeExternalId', 'tipAmount']);
  const rows = lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [columns[i], v])));
  const annRow = rows.find((r) => r.cashierId === ann);
  expect(annRow).toMatchObject({ storeExternalId: cafe.storeExternalId, currency: 'EUR', count: '2' });
  expect(Number(annRow!.tipAmount)).toBe(6);
  expect(rows.filter((r) => r.storeExternalId === cafe.storeExternalId)).toHaveLength(3);
});

test('OPERATIONS has no Tips link and is told so at its address', async ({ page }) => {
  const s = state();
  await signIn(page, s.users.OPERATIONS, s.password);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tips' })).toHaveCount(0);
  await page.goto('/dashboard/tips');
  await expect(page.getByRole('alert')).toContainText('You do not have access to Tips');
  await expect(page.getByRole('table')).toHaveCount(0);
});
