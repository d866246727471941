import { HttpAcquirer } from '../../src/acquirer/httpAdapter';
import { bill, call, newDevice, onDevice, type Sandbox, sleep, withSandbox } from './helpers';

/** A dispute's money in the sandbox's settlement reports (docs/disputes.md, "Settlement: the dispute's money"): the debit once, the credit back once when WON, nothing when LOST. */
describe('sandbox chargebacks in settlement reports', () => {
  let sb: Sandbox;
  let acquirer: HttpAcquirer;
  withSandbox((started) => ({ sb, acquirer } = started));

  const disputed = async (d: string, amount: string) => {
    const request = bill(d, { amount: '50.00' });
    const ref = onDevice(await acquirer.sendBill(request));
    expect((await call(sb, 'POST', `/sim/devices/${d}/customer`, { action: 'pay' })).status).toBe(200);
    const opened = await call(sb, 'POST', `/sim/payments/${request.pspReference}/disputes`, { amount });
    expect(opened.status).toBe(201);
    return {
      ref,
      pspReference: request.pspReference,
      paymentId: request.paymentId,
      disputeId: opened.body.disputeId as string,
      openedAt: opened.body.openedAt,
    };
  };
  const close = (d: string, ref: string) => acquirer.closeBatch(d, ref, new Date(Date.now() + 1000).toISOString());
  const kinds = (items: { type: string }[]) => items.map((i) => i.type).sort();

  it('reports the debit at the close after the opening, the reversal at the close after WON, each once', async () => {
    const d = newDevice();
    const x = await disputed(d, '20.5');
    const first = await close(d, 'B1');
    expect(kinds(first.items)).toEqual(['CHARGEBACK', 'PAYMENT']);
    expect(first.items.find((i) => i.type === 'CHARGEBACK')).toEqual({
      type: 'CHARGEBACK',
      acquirerRef: x.ref,
      disputeId: x.disputeId,
      bookingRef: 'CHARGEBACK',
      paymentId: x.paymentId,
      pspReference: x.pspReference,
      reference: expect.anything(),
      amount: '20.5',
      currency: 'EUR',
      feeAmount: '0.00',
      occurredAt: x.openedAt,
    });
    // the same reference answers the same report; a new one has nothing new
    expect(kinds((await close(d, 'B1')).items)).toEqual(['CHARGEBACK', 'PAYMENT']);
    expect((await close(d, 'B2')).items).toEqual([]);

    await acquirer.disputes.submitDisputeEvidence(d, x.disputeId, { text: 'signed receipt', transaction: {} });
    await sleep(50);
    expect((await acquirer.disputes.getDispute(d, x.disputeId)).status).toBe('WON');
    const third = await close(d, 'B3');
    expect(third.items).toEqual([expect.objectContaining({ type: 'CHARGEBACK_REVERSAL', acquirerRef: x.ref, disputeId: x.disputeId, amount: '20.5' })]);
    expect((await close(d, 'B4')).items).toEqual([]);
  });

  it('a LOST dispute keeps its debit: no reversal; one opened and won within one period has both in one report', async () => {
    const lost = newDevice();
    await call(sb, 'PUT', `/sim/devices/${lost}`, { disputeOutcome: 'LOST' });
    const l = await disputed(lost, '5');
    await acquirer.disputes.submitDisputeEvidence(lost, l.disputeId, { text: 'receipt', transaction: {} });
    await sleep(50);
    expect(kinds((await close(lost, 'L1')).items)).toEqual(['CHARGEBACK', 'PAYMENT']);
    expect((await close(lost, 'L2')).items).toEqual([]);

    const won = newDevice();
    const w = await disputed(won, '5');
    await acquirer.disputes.submitDisputeEvidence(won, w.disputeId, { text: 'receipt', transaction: {} });
    await sleep(50);
    expect(kinds((await close(won, 'W1')).items)).toEqual(['CHARGEBACK', 'CHARGEBACK_REVERSAL', 'PAYMENT']);
  });
});
