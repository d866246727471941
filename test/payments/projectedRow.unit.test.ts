import type { Payment } from '../../src/generated/prisma/client';
import { Prisma } from '../../src/generated/prisma/client';
import { projectedColumns, rowAfterPlacement } from '../../src/payments/projectedRow';
import { initialState, projectedFields } from '../../core/payment/transition';

/** The projection's columns and the create's answer built from the placement (src/payments/projectedRow.ts). */
describe('projected columns', () => {
  const fields = projectedFields(initialState({ status: 'AWAITING_TERMINAL', acquirerRef: 'sbx_1', amount: '12.5', refundedAmount: '0' }));

  it('maps the decided fields to the row: times as dates, amounts as exact decimals', () => {
    const captured = projectedColumns({ ...fields, status: 'CAPTURED', capturedAt: '2026-12-07T10:00:00.000Z', capturedAmount: '12.50', tipAmount: '1.5' });
    expect(captured.capturedAt).toEqual(new Date('2026-12-07T10:00:00.000Z'));
    expect(captured.capturedAmount).toBeInstanceOf(Prisma.Decimal);
    expect(captured.capturedAmount?.toFixed()).toBe('12.5');
    expect(captured.tipAmount?.toFixed()).toBe('1.5');
    expect(captured.refundedAmount?.toFixed()).toBe('0');
  });

  it('leaves out what a run from before a field existed does not carry: the row keeps its value', () => {
    const older = { ...fields } as Partial<typeof fields>;
    delete older.capturedAmount;
    delete older.refundedAmount;
    const columns = projectedColumns(older as typeof fields);
    expect('capturedAmount' in columns).toBe(false);
    expect('refundedAmount' in columns).toBe(false);
    expect('amount' in columns).toBe(false); // written only after a partial approval
  });

  it('the row after the placement: the inserted row, the placement’s columns, its sequence and time', () => {
    const inserted = {
      id: 'p-1',
      status: 'CREATED',
      acquirerRef: null,
      amount: new Prisma.Decimal('12.5'),
      tipAmount: new Prisma.Decimal('0'),
      capturedAmount: null,
      refundedAmount: new Prisma.Decimal('0'),
      cashierId: 'c-7',
      historySequence: 0,
      createdAt: new Date('2026-12-07T09:59:59.000Z'),
      updatedAt: new Date('2026-12-07T09:59:59.000Z'),
    } as unknown as Payment;
    const row = rowAfterPlacement(inserted, { fields, sequence: 1, occurredAt: '2026-12-07T10:00:00.123Z' });
    expect(row).toMatchObject({ id: 'p-1', status: 'AWAITING_TERMINAL', acquirerRef: 'sbx_1', cashierId: 'c-7', historySequence: 1, capturedAmount: null });
    expect(row.updatedAt).toEqual(new Date('2026-12-07T10:00:00.123Z'));
    expect(row.createdAt).toEqual(inserted.createdAt);
  });
});
