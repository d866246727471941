import { receiptIdOf, receiptPartsOf } from '../../core/receipt/messages';
import { receiptIdOfMessageId, receiptMessageId } from '../../src/receipts/email';

/**
 * A receipt's id and its Message-ID (docs/receipts.md): the chaos run's judge reads the mailbox back
 * through the inverses, so each must give back exactly what its format was built from.
 */
const paymentId = '3f2b8c1e-5d4a-4e7b-9c10-2a6f8e9d0b11';

describe('receipt ids and Message-IDs', () => {
  it.each([
    ['CAPTURED', undefined, 'captured'],
    ['VOIDED', undefined, 'voided'],
    ['REFUNDED', '8d1c7f0a-1111-4222-8333-944455556666', 'refund-8d1c7f0a-1111-4222-8333-944455556666'],
  ] as const)('%s: the id names its payment and event, and its Message-ID gives the id back', (event, refundKey, rest) => {
    const receiptId = receiptIdOf(paymentId, event, refundKey);
    expect(receiptPartsOf(receiptId)).toEqual({ paymentId, event: rest });
    const messageId = receiptMessageId(receiptId, 'receipts@shop.example');
    expect(messageId).toBe(`<receipt-${receiptId}@shop.example>`);
    expect(receiptIdOfMessageId(messageId)).toBe(receiptId);
  });

  it('a message that is no receipt names none', () => {
    expect(receiptIdOfMessageId('<abc@mail.example>')).toBeNull();
    expect(receiptIdOfMessageId(undefined)).toBeNull();
    expect(receiptIdOfMessageId('')).toBeNull();
  });
});
