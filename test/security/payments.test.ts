import { call } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { createPayment, eventually, openShop } from '../payments/helpers';

/** Issue 15 on the payment path: receipt fields reach the acquirer and the record (point 12). */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.stop();
});

describe('receipt fields (point 12)', () => {
  it('passes cashierId, customerMobile and customerEmail to the acquirer and shows them on the payment record', async () => {
    const shop = await openShop(stack);
    const receipt = { cashierId: 'cashier-7', customerMobile: '+49 170 1234567', customerEmail: 'anna@example.com' };
    const created = await createPayment(stack, shop, receipt);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject(receipt);
    const row = await eventually(async () => {
      const p = await stack.db.payment.findUnique({ where: { id: created.body.id } });
      return p?.acquirerRef ? p : undefined;
    });
    const bill = await call(stack.sandboxUrl, 'GET', `/sim/bills/${row.acquirerRef}`);
    expect(bill.status).toBe(200);
    expect(bill.body.receipt).toEqual(receipt);
    const tx = await call(stack.apiUrl, 'GET', `/api/transactions/${created.body.id}`, { key: shop.key });
    expect(tx.body).toMatchObject(receipt);
  });

  it('sends no receipt when none was given, and the record shows null', async () => {
    const shop = await openShop(stack);
    const created = await createPayment(stack, shop);
    expect(created.body).toMatchObject({ cashierId: null, customerMobile: null, customerEmail: null });
    const row = await eventually(async () => {
      const p = await stack.db.payment.findUnique({ where: { id: created.body.id } });
      return p?.acquirerRef ? p : undefined;
    });
    const bill = await call(stack.sandboxUrl, 'GET', `/sim/bills/${row.acquirerRef}`);
    expect(bill.body.receipt).toBeUndefined();
  });
});
