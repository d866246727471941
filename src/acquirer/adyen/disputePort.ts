import { DisputesApi, type Client } from './library';
import { AcquirerRejectedError, type AcquirerDispute, type AcquirerDisputes, type DisputeEvidence } from '../port';
import type { AdyenDisputeBook } from '../../disputes/adyenNotices';
import { defenseDocumentOf, defenseReasonOf } from './disputes';

type Call = <T>(what: string, fn: () => Promise<T>) => Promise<T>;

/**
 * Disputes at Adyen (docs/disputes.md, "Adyen"): the dispute as its verified notifications told it
 * (the book, the account's own: Adyen's Disputes API has no read), answered through the Disputes API
 * (`DisputeService/v30`, the library's DisputesApi). A defense: the applicable defense reasons,
 * our document supplied under the chosen reason's document types, then the defense itself. The
 * device id plays no part: a dispute is named by its pspReference within the merchant account.
 */
export class AdyenDisputes implements AcquirerDisputes {
  private readonly api: DisputesApi;

  constructor(
    client: Client,
    private readonly mid: string,
    private readonly book: AdyenDisputeBook,
    private readonly call: Call,
  ) {
    this.api = new DisputesApi(client);
  }

  async getDispute(_deviceId: string, disputeId: string): Promise<AcquirerDispute> {
    const known = await this.book.read(disputeId);
    if (!known) throw new AcquirerRejectedError(`no notification of dispute ${disputeId} for ${this.mid}`, 404);
    return known;
  }

  /** Sent only while Adyen waits for an answer: a repeat answers the dispute as it stands. */
  async submitDisputeEvidence(deviceId: string, disputeId: string, evidence: DisputeEvidence): Promise<AcquirerDispute> {
    const now = await this.getDispute(deviceId, disputeId);
    if (now.status !== 'NEEDS_RESPONSE') return now;
    const ref = { merchantAccountCode: this.mid, disputePspReference: disputeId };
    const reasons = await this.call('read the applicable defense reasons', () => this.api.retrieveApplicableDefenseReasons(ref));
    refusedUnless(reasons.disputeServiceResult, 'read the defense reasons');
    const choice = defenseReasonOf(reasons.defenseReasons ?? []);
    if (!choice) throw new AcquirerRejectedError(`adyen offers no defense reason for dispute ${disputeId}`, 422);
    if (choice.documentTypeCodes.length) {
      const document = defenseDocumentOf(evidence);
      const supplied = await this.call('supply the defense document', () =>
        this.api.supplyDefenseDocument({
          ...ref,
          defenseDocuments: choice.documentTypeCodes.map((defenseDocumentTypeCode) => ({ defenseDocumentTypeCode, ...document })),
        }),
      );
      refusedUnless(supplied.disputeServiceResult, 'supply the defense document');
    }
    const defended = await this.call('defend the dispute', () => this.api.defendDispute({ ...ref, defenseReasonCode: choice.defenseReasonCode }));
    refusedUnless(defended.disputeServiceResult, 'defend the dispute');
    await this.book.mark(disputeId, 'UNDER_REVIEW');
    return this.getDispute(deviceId, disputeId);
  }

  async acceptDispute(deviceId: string, disputeId: string): Promise<AcquirerDispute> {
    const now = await this.getDispute(deviceId, disputeId);
    if (now.status !== 'NEEDS_RESPONSE') return now;
    const accepted = await this.call('accept the dispute', () => this.api.acceptDispute({ merchantAccountCode: this.mid, disputePspReference: disputeId }));
    refusedUnless(accepted.disputeServiceResult, 'accept the dispute');
    await this.book.mark(disputeId, 'ACCEPTED');
    return this.getDispute(deviceId, disputeId);
  }
}

/** Adyen answers 200 with `success: false` and its words when it will not: a refusal. */
function refusedUnless(result: { success: boolean; errorMessage?: string } | undefined, what: string): void {
  if (!result?.success) throw new AcquirerRejectedError(`adyen refused to ${what}: ${result?.errorMessage ?? 'no reason given'}`, 422);
}
