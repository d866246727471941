import { HttpAcquirer } from '../../src/acquirer/httpAdapter';
import { bill, call, newDevice, onDevice, type Sandbox, sleep, withSandbox } from './helpers';

/** Disputes in the sandbox (docs/disputes.md, "The sandbox") through HttpAcquirer's dispute port against a real sandbox server. */
describe('sandbox disputes', () => {
  let sb: Sandbox;
  let acquirer: HttpAcquirer;
  withSandbox((started) => ({ sb, acquirer } = started));

  const paid = async (d: string, amount = '30.00') => {
    const request = bill(d, { amount });
    const ref = onDevice(await acquirer.sendBill(request));
    expect((await call(sb, 'POST', `/sim/devices/${d}/customer`, { action: 'pay' })).status).toBe(200);
    return { ref, pspReference: request.pspReference };
  };
  const open = (pspReference: string, body: object = {}) => call(sb, 'POST', `/sim/payments/${pspReference}/disputes`, body);

  it('opens on a captured bill with the defaults; kept across a restart; submitted, then decided as the device says after its delay', async () => {
    const d = newDevice();
    await call(sb, 'PUT', `/sim/devices/${d}`, { disputeOutcome: 'LOST', disputeDecisionDelayMs: 300 });
    const { ref, pspReference } = await paid(d);
    const opened = await open(pspReference);
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({ acquirerRef: ref, status: 'NEEDS_RESPONSE', reason: 'FRAUD', amount: '30', currency: 'EUR', pspReference });
    expect(Date.parse(opened.body.dueBy) - Date.parse(opened.body.openedAt)).toBe(168 * 3_600_000);
    const id = opened.body.disputeId as string;

    await sb.restart();
    acquirer = new HttpAcquirer(sb.url, { timeoutMs: 2000 }); // the restarted server listens on a new port
    expect(await acquirer.disputes.getDispute(d, id)).toMatchObject({ disputeId: id, status: 'NEEDS_RESPONSE' });

    const submitted = await acquirer.disputes.submitDisputeEvidence(d, id, { text: 'signed receipt', transaction: { pspReference } });
    expect(submitted.status).toBe('UNDER_REVIEW');
    // a repeat answers the dispute as it stands (an answer lost on the way is asked again)
    expect((await acquirer.disputes.submitDisputeEvidence(d, id, { text: 'again', transaction: {} })).status).toBe('UNDER_REVIEW');
    await sleep(400);
    expect((await acquirer.disputes.getDispute(d, id)).status).toBe('LOST');
    await expect(acquirer.disputes.acceptDispute(d, id)).rejects.toMatchObject({ status: 409 });
  });

  it('accepts once; refuses answers after the due date, a dispute above the captured amount, a voided bill and an unknown payment', async () => {
    const d = newDevice();
    const first = await paid(d, '10.00');
    const accepted = await open(first.pspReference, { reason: 'GENERAL', amount: 4.5 });
    expect(accepted.body).toMatchObject({ reason: 'GENERAL', amount: '4.5' });
    expect((await acquirer.disputes.acceptDispute(d, accepted.body.disputeId)).status).toBe('ACCEPTED');
    expect((await acquirer.disputes.acceptDispute(d, accepted.body.disputeId)).status).toBe('ACCEPTED');
    await expect(acquirer.disputes.submitDisputeEvidence(d, accepted.body.disputeId, { text: 't', transaction: {} })).rejects.toMatchObject({ status: 409 });

    const late = await open(first.pspReference, { respondWithinHours: 0.00001 }); // due in 36 ms
    await sleep(100);
    await expect(acquirer.disputes.submitDisputeEvidence(d, late.body.disputeId, { text: 't', transaction: {} })).rejects.toMatchObject({ status: 409 });

    expect((await open(first.pspReference, { amount: 10.01 })).status).toBe(409);
    const second = await paid(d);
    await acquirer.submitVoid(d, second.ref, 'VOID-1');
    expect((await open(second.pspReference)).status).toBe(409);
    expect((await open('PSP-unknown')).status).toBe(404);
    await expect(acquirer.disputes.getDispute('another-device', accepted.body.disputeId)).rejects.toMatchObject({ status: 404 });
  });
});
