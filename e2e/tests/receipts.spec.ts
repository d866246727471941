import { customerPays, expect, expectAccessible, screenshot, signIn, state, takePayment, test } from './fixtures';

/**
 * The receipt on the payment page (docs/receipts.md): its printed lines, and *Send receipt* to an
 * address typed in Email for ADMIN, FINANCE and OPERATIONS, read back from the development mailbox;
 * the other roles see the receipt without the button.
 */
test.describe.configure({ mode: 'serial' });

let payment: { id: string; pspReference: string };

test('an OPERATIONS user sees the receipt and sends it to an address; it arrives in the mailbox', async ({ page }) => {
  const s = state();
  payment = await takePayment(s, 18.4, `receipt-${Date.now()}`, 'anna');
  await customerPays(s);
  await signIn(page, s.users.OPERATIONS, s.password);
  await page.goto(`/dashboard/payments/${payment.id}`);
  await expect(page.getByRole('heading', { name: `Payment ${payment.pspReference}` })).toContainText('CAPTURED');

  const receipt = page.getByLabel('Receipt', { exact: true });
  await expect(receipt).toContainText('VISA **** 4242');
  await expect(receipt).toContainText(/TOTAL\s+€18\.40/);
  await expect(receipt).toContainText(/Cashier\s+anna/);

  const to = `jane.${Date.now()}@example.com`;
  await page.getByLabel('Email', { exact: true }).fill(to);
  await page.getByRole('button', { name: 'Send receipt' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Receipt queued for' })).toContainText('j***@example.com');
  await screenshot(page, 'receipt');
  await expectAccessible(page);

  await expect
    .poll(
      async () => {
        const mails = (await (await fetch(`${s.sandboxUrl}/sim/mailbox`)).json()) as { to: string; subject: string; text: string }[];
        return mails.filter((m) => m.to === to && m.subject.includes(payment.pspReference)).length;
      },
      { timeout: 30_000 },
    )
    .toBe(1);
});

test('a USER sees the receipt but no Send receipt', async ({ page }) => {
  const s = state();
  await signIn(page, s.users.USER, s.password);
  await page.goto(`/dashboard/payments/${payment.id}`);
  await expect(page.getByLabel('Receipt', { exact: true })).toContainText(/TOTAL\s+€18\.40/);
  await expect(page.getByRole('button', { name: 'Send receipt' })).toHaveCount(0);
  await expect(page.getByLabel('Email', { exact: true })).toHaveCount(0);
  await expectAccessible(page);
});
