import { type BillStatus, type RefundRequest, type RefundStatus, type SendBillResult, type VoidStatus } from '../../src/acquirer/port';
import { type AcquirerResolver, type BillRef, resolverOf } from '../../src/acquirer/resolver';
import type { PlaceBillRequest } from '../../core/payment/messages';
import type { ActivityDeps } from '../deps';
import { callAcquirer, readAtAcquirer } from '../acquirerCalls';

/**
 * The payment workflow's acquirer calls. Every one is safe to retry: send-bill is idempotent per
 * payment id at the acquirer, reads change nothing, withdraw of a decided bill answers its state,
 * and each void reference is one reversal. Each goes through callAcquirer (../acquirerCalls.ts):
 * an unreachable acquirer is retried, a refusal is the final ACQUIRER_REJECTED failure.
 */

/** Outcome of the probe run after a placement that never got an answer. */
export type ProbeResult = { found: BillStatus } | { notPlaced: true; why: string };

/**
 * Each call goes to the acquirer that took the payment (src/acquirer/resolver.ts): its account, or
 * the installation's acquirer it names, fixed at creation and remembered by this worker's resolver.
 */
export function paymentAcquirerActivities(deps: ActivityDeps, resolver: AcquirerResolver = resolverOf(deps)) {
  return {
    async sendBill({ takenBy, ...request }: PlaceBillRequest): Promise<SendBillResult> {
      const acquirer = await resolver.ofPayment({ paymentId: request.paymentId, takenBy });
      const sent = await callAcquirer(() => acquirer.sendBill(request));
      // The bill's later calls name it by device and reference: known here already, no read for them.
      if (sent.outcome === 'ON_DEVICE') resolver.billPlaced(request.paymentId, { deviceId: request.deviceId, acquirerRef: sent.acquirerRef });
      return sent;
    },

    async readBill(ref: BillRef): Promise<BillStatus> {
      const acquirer = await resolver.ofPayment(ref);
      return callAcquirer(() => acquirer.getBillStatus(ref.deviceId, ref.acquirerRef));
    },

    async withdrawBill(ref: BillRef): Promise<BillStatus> {
      const acquirer = await resolver.ofPayment(ref);
      return callAcquirer(() => acquirer.withdrawBill(ref.deviceId, ref.acquirerRef));
    },

    /** At expiry: one more read, and the bill withdrawn when nobody decided. */
    async expireBill(ref: BillRef): Promise<BillStatus> {
      const acquirer = await resolver.ofPayment(ref);
      return callAcquirer(async () => {
        const status = await acquirer.getBillStatus(ref.deviceId, ref.acquirerRef);
        return status.state === 'WAITING' ? acquirer.withdrawBill(ref.deviceId, ref.acquirerRef) : status;
      });
    },

    /**
     * After every send went unanswered: find out whether a bill of ours reached the device. The
     * acquirer answers a repeated send of the same payment with the bill it already holds (in
     * whatever state); otherwise this places a one-second bill that is withdrawn at once. Either
     * way no bill of ours is left waiting.
     */
    async probeUnplacedBill({ takenBy, ...request }: PlaceBillRequest): Promise<ProbeResult> {
      const acquirer = await resolver.ofPayment({ paymentId: request.paymentId, takenBy });
      return callAcquirer(async () => {
        const sent = await acquirer.sendBill({ ...request, timeoutSeconds: 1 });
        if (sent.outcome === 'DEVICE_BUSY') return { notPlaced: true, why: 'another bill is on the device' };
        if (sent.outcome === 'MODE_UNSUPPORTED') return { notPlaced: true, why: 'the device does not offer the modes' };
        const status = await acquirer.getBillStatus(request.deviceId, sent.acquirerRef);
        return { found: status.state === 'WAITING' ? await acquirer.withdrawBill(request.deviceId, sent.acquirerRef) : status };
      });
    },

    async submitVoid(input: BillRef & { voidReference: string }): Promise<VoidStatus> {
      const acquirer = await resolver.ofPayment(input);
      return callAcquirer(() => acquirer.submitVoid(input.deviceId, input.acquirerRef, input.voidReference));
    },

    /** Completes a two-step authorisation; idempotent per bill at the acquirer. */
    async completeAuthorization(input: BillRef & { amount: string; captureReference: string }): Promise<BillStatus> {
      const acquirer = await resolver.ofPayment(input);
      return callAcquirer(() =>
        acquirer.completeAuthorization(input.deviceId, input.acquirerRef, { amount: input.amount, captureReference: input.captureReference }),
      );
    },

    /** Releases a two-step authorisation; a released or completed bill is answered as it is. */
    async releaseAuthorization(ref: BillRef): Promise<BillStatus> {
      const acquirer = await resolver.ofPayment(ref);
      return callAcquirer(() => acquirer.releaseAuthorization(ref.deviceId, ref.acquirerRef));
    },

    /**
     * Submits a refund, or re-reads it: the acquirer keeps one refund per refundReference, so a
     * retry after a lost answer answers the same refund and never pays twice.
     */
    async submitRefund(input: BillRef & RefundRequest): Promise<RefundStatus> {
      const acquirer = await resolver.ofPayment(input);
      const { deviceId, acquirerRef, ...request } = input;
      return callAcquirer(() => acquirer.refund(deviceId, acquirerRef, request));
    },

    /** The refund with this reference, or null when the acquirer never received it. */
    async readRefund(input: BillRef & { refundReference: string }): Promise<RefundStatus | null> {
      const acquirer = await resolver.ofPayment(input);
      return readAtAcquirer(() => acquirer.getRefund(input.deviceId, input.refundReference));
    },

    /** The reversal's state, or null when the acquirer never received it. `acquirerRef`: runs before it was passed have none. */
    async readVoid(input: { deviceId: string; voidReference: string; acquirerRef?: string }): Promise<VoidStatus | null> {
      const acquirer = await resolver.ofPayment(input);
      return readAtAcquirer(() => acquirer.getVoidStatus(input.deviceId, input.voidReference, input.acquirerRef));
    },
  };
}
