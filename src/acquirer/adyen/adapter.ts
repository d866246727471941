import { randomUUID } from 'node:crypto';
import { Client, CloudDeviceApi, EnvironmentEnum, HttpClientException, loadModificationsApi, type ModificationsApi } from './library';
import type { CloudDeviceApiResponse } from '@adyen/api-library/lib/src/typings/clouddevice/models';
import {
  type AcquirerPort,
  AcquirerRejectedError,
  AcquirerUnreachableError,
  type BillStatus,
  type CompleteAuthorizationRequest,
  type DeviceCapabilities,
  type RefundRequest,
  type RefundStatus,
  type SendBillRequest,
  type SendBillResult,
  type SettlementReport,
  type VoidStatus,
} from '../port';
import {
  type MessageRef,
  abortAnswerOf,
  abortRequestOf,
  acquirerRefOf,
  billStatusOfRead,
  deviceOf,
  ourPair,
  paymentMessageOf,
  paymentRequestOf,
  priorSendOf,
  refundMessageOf,
  refundStatusOf,
  reversalOf,
  reversalRequestOf,
  reversibleTransactionOf,
  sendBillResultOf,
  statusReadOf,
  type StatusRead,
  transactionStatusRequestOf,
  voidMessageOf,
  voidStatusOf,
} from './mapping';
import { cancelRequestOf, captureRequestOf, capturedBillOf, preAuthorisationOf, releasedBillOf, releaseReferenceOf } from './modifications';
import { readServiceIdOf } from './references';
import { ReportDownloader } from './reports';
import { parseReport, reportDatesOf, reportFileOf, reportPeriodOf, settlementItemsOfReport } from './settlement';
import { AdyenHttpClient } from './transport';
import { AdyenDisputes } from './disputePort';
import type { AdyenDisputeBook } from '../../disputes/adyenNotices';

export interface AdyenAcquirerOptions {
  apiKey: string;
  environment: 'TEST' | 'LIVE';
  /** The account's MID: every cloud device API path names it. */
  merchantAccountId: string;
  /** Tests only (ADYEN_API_BASE): where Adyen is; default Adyen's own URL for the environment. */
  apiBase?: string;
  timeoutMs?: number;
  /** LIVE only: the account's live URL prefix, which Adyen's Checkout (modification) calls need. */
  liveEndpointUrlPrefix?: string;
  /** How many hours the settlement report's period trails a close (ADYEN_REPORT_LAG_HOURS; default none). */
  reportLagHours?: number;
  /** The account's Adyen disputes as its notifications told them (Adyen's Disputes API reads nothing back); without it, disputes are 501. */
  disputeBook?: AdyenDisputeBook;
}

/**
 * The account's live URL prefix for Checkout; under ADYEN_API_BASE (tests) the host is replaced
 * anyway, so a LIVE account there needs none.
 */
const livePrefixOf = (o: AdyenAcquirerOptions): string | undefined => o.liveEndpointUrlPrefix || (o.apiBase ? 'api-base' : undefined);

/**
 * The acquirer port over Adyen's cloud Terminal API (the cloud device API's /sync and /async),
 * through the official library. A device id is the terminal's POIID; a bill's acquirer reference
 * is our payment id (./references.ts). Every write's ServiceID comes from our own ids and is read
 * back before it is sent again, so a retry after a lost answer is never a second payment or
 * reversal. The mapping itself is in ./mapping.ts.
 */
export class AdyenAcquirer implements AcquirerPort {
  readonly name = 'adyen';
  private readonly api: CloudDeviceApi;
  private readonly mid: string;
  private readonly apiKey: string;
  private readonly client: Client;
  private modificationsApi?: ModificationsApi;
  private readonly reports: ReportDownloader;
  private readonly reportLagHours: number;
  readonly disputes?: AdyenDisputes;

  constructor(options: AdyenAcquirerOptions) {
    this.mid = options.merchantAccountId;
    this.apiKey = options.apiKey;
    this.reports = new ReportDownloader(options);
    this.reportLagHours = options.reportLagHours ?? 0;
    const client = new Client(
      {
        apiKey: options.apiKey,
        environment: options.environment === 'LIVE' ? EnvironmentEnum.LIVE : EnvironmentEnum.TEST,
        connectionTimeoutMillis: options.timeoutMs ?? 30_000,
        ...(livePrefixOf(options) ? { liveEndpointUrlPrefix: livePrefixOf(options) } : {}),
      },
      new AdyenHttpClient(options.apiBase),
    );
    this.client = client;
    this.api = new CloudDeviceApi(client);
    if (options.disputeBook) this.disputes = new AdyenDisputes(client, this.mid, options.disputeBook, (what, fn) => this.call(what, fn));
  }

  async getDevice(deviceId: string): Promise<DeviceCapabilities> {
    return deviceOf(await this.call('read the device status', () => this.api.getDeviceStatus(this.mid, deviceId)), deviceId);
  }

  /**
   * The bill: first a status read of this payment's pair (a retry finds the bill already there,
   * in whatever state), then the PaymentRequest on /async. Adyen terminals offer every mode we
   * have, so no bill is MODE_UNSUPPORTED; the terminal keeps no timeout of ours (expiry withdraws).
   */
  async sendBill(request: SendBillRequest): Promise<SendBillResult> {
    const acquirerRef = acquirerRefOf(request);
    const prior = priorSendOf(await this.read(request.deviceId, paymentMessageOf(acquirerRef)), acquirerRef);
    if (prior) return prior;
    const answer = await this.call('send the payment request', () => this.api.async(this.mid, request.deviceId, paymentRequestOf(request, new Date())));
    const sent = sendBillResultOf(answer, acquirerRef);
    if (sent.outcome !== 'ON_DEVICE') return sent;
    // /async answers only `ok`: a terminal busy with another sale says so in the outcome, which a
    // read finds at once. No answer to the read: the bill is taken as placed (the workflow reads on).
    const after = await this.read(request.deviceId, paymentMessageOf(acquirerRef)).catch(() => null);
    return after && priorSendOf(after, acquirerRef)?.outcome === 'DEVICE_BUSY' ? { outcome: 'DEVICE_BUSY', currentReference: null } : sent;
  }

  async getBillStatus(deviceId: string, acquirerRef: string): Promise<BillStatus> {
    return billStatusOfRead(await this.read(deviceId, paymentMessageOf(acquirerRef)), acquirerRef);
  }

  /** AbortRequest while the bill waits (it only works before the customer approves), then a read: an approval in between wins. */
  async withdrawBill(deviceId: string, acquirerRef: string): Promise<BillStatus> {
    const before = await this.getBillStatus(deviceId, acquirerRef);
    if (before.state !== 'WAITING') return before;
    const answer = await this.call('abort the payment', () => this.api.sync(this.mid, deviceId, abortRequestOf(deviceId, acquirerRef))).catch(ignoreRefusal);
    const aborted = answer ? abortAnswerOf(answer, acquirerRef) : null;
    const after = billStatusOfRead(await this.read(deviceId, paymentMessageOf(acquirerRef)), acquirerRef, true);
    return after.state === 'WAITING' && aborted && aborted.state !== 'WAITING' ? aborted : after;
  }

  /** Void: a ReversalRequest of the whole payment, once per void reference. */
  async submitVoid(deviceId: string, acquirerRef: string, voidReference: string): Promise<VoidStatus> {
    const pair = voidMessageOf(voidReference);
    const prior = await this.read(deviceId, pair);
    if (prior.found === 'reversal') return voidStatusOf(prior.reversal, voidReference);
    if (prior.found === 'in-progress') return { voidReference, state: 'PENDING' };
    try {
      const original = reversibleTransactionOf(await this.read(deviceId, paymentMessageOf(acquirerRef)));
      const answer = await this.call('reverse (void) the payment', () =>
        this.api.sync(this.mid, deviceId, reversalRequestOf(deviceId, original, { kind: 'void', voidReference }, new Date())),
      );
      return voidStatusOf(reversalOf(answer, pair), voidReference);
    } catch (err) {
      if (err instanceof AcquirerRejectedError) return { voidReference, state: 'REJECTED', message: err.message };
      throw err;
    }
  }

  /** The void's reversal, read back by its pair; 404 when the terminal never had it. */
  async getVoidStatus(deviceId: string, voidReference: string): Promise<VoidStatus> {
    const read = await this.read(deviceId, voidMessageOf(voidReference));
    if (read.found === 'reversal') return voidStatusOf(read.reversal, voidReference);
    if (read.found === 'in-progress') return { voidReference, state: 'PENDING' };
    throw new AcquirerRejectedError(`no reversal for void ${voidReference} at adyen (${read.found === 'nothing' ? read.words : read.found})`, 404);
  }

  /** Refund: a referenced ReversalRequest with ReversedAmount, once per refund reference. */
  async refund(deviceId: string, acquirerRef: string, request: RefundRequest): Promise<RefundStatus> {
    const { refundReference, amount, currency } = request;
    const pair = refundMessageOf(refundReference);
    const prior = await this.read(deviceId, pair);
    if (prior.found === 'reversal') return refundStatusOf(prior.reversal, refundReference, amount, currency);
    if (prior.found === 'in-progress') return { refundReference, state: 'PENDING', amount };
    try {
      const original = reversibleTransactionOf(await this.read(deviceId, paymentMessageOf(acquirerRef)));
      const answer = await this.call('refund the payment', () =>
        this.api.sync(this.mid, deviceId, reversalRequestOf(deviceId, original, { kind: 'refund', refundReference, amount, currency }, new Date())),
      );
      return refundStatusOf(reversalOf(answer, pair), refundReference, amount, currency);
    } catch (err) {
      if (err instanceof AcquirerRejectedError) return { refundReference, state: 'FAILED', amount, message: err.message };
      throw err;
    }
  }

  /** The refund's reversal, read back by its pair; 404 when the terminal never had it. Adyen's read names no amount unless it says ReversedAmount. */
  async getRefund(deviceId: string, refundReference: string): Promise<RefundStatus> {
    const read = await this.read(deviceId, refundMessageOf(refundReference));
    if (read.found === 'reversal') return refundStatusOf(read.reversal, refundReference, undefined);
    if (read.found === 'in-progress') return { refundReference, state: 'PENDING', amount: '0' };
    throw new AcquirerRejectedError(`no refund ${refundReference} at adyen (${read.found === 'nothing' ? read.words : read.found})`, 404);
  }

  /**
   * Completes a pre-authorisation: a read of the bill at the terminal (its pspReference, currency
   * and card), then Adyen's capture of `amount` with our captureReference as reference and
   * Idempotency-Key, so a retry after a lost answer is the same capture. `received`: CAPTURED.
   */
  async completeAuthorization(deviceId: string, acquirerRef: string, request: CompleteAuthorizationRequest): Promise<BillStatus> {
    const modifications = await this.modifications(); // before any call: a LIVE account without its prefix is refused at once
    const preAuth = preAuthorisationOf(await this.read(deviceId, paymentMessageOf(acquirerRef)), acquirerRef);
    const { amount, captureReference } = request;
    const answer = await this.call('capture the pre-authorisation', () =>
      modifications.captureAuthorisedPayment(preAuth.pspReference, captureRequestOf(this.mid, preAuth, amount, captureReference), {
        idempotencyKey: captureReference,
      }),
    );
    return capturedBillOf(answer, preAuth, captureReference, new Date());
  }

  /** Releases a pre-authorisation: Adyen's cancel of its pspReference, once per bill (RELEASE-<paymentId>). `received`: RELEASED. */
  async releaseAuthorization(deviceId: string, acquirerRef: string): Promise<BillStatus> {
    const modifications = await this.modifications();
    const preAuth = preAuthorisationOf(await this.read(deviceId, paymentMessageOf(acquirerRef)), acquirerRef);
    const answer = await this.call('release (cancel) the pre-authorisation', () =>
      modifications.cancelAuthorisedPaymentByPspReference(preAuth.pspReference, cancelRequestOf(this.mid, acquirerRef), {
        idempotencyKey: releaseReferenceOf(acquirerRef),
      }),
    );
    return releasedBillOf(answer, preAuth, acquirerRef, new Date());
  }

  /** Adyen's Checkout modifications, built on first use: the library refuses a LIVE one without the account's live URL prefix. */
  private async modifications(): Promise<ModificationsApi> {
    if (!this.modificationsApi) {
      if (this.client.config.environment === EnvironmentEnum.LIVE && !this.client.config.liveEndpointUrlPrefix) {
        throw new AcquirerRejectedError('adyen modifications (capture, cancel) of a LIVE account need its live endpoint URL prefix, which is not set', 501);
      }
      this.modificationsApi = new (await loadModificationsApi())(this.client);
    }
    return this.modificationsApi;
  }

  /**
   * The terminal's settlement for (since, until], trailing by the report lag: Adyen's daily
   * Payment accounting reports of the days around the period, their Settled and Refunded lines of
   * this terminal booked in it (./settlement.ts). The files of past days do not change, so the
   * same close answers the same report; a day without a file has nothing booked.
   */
  async closeBatch(deviceId: string, batchReference: string, until: string, since?: string | null): Promise<SettlementReport> {
    const period = reportPeriodOf(until, since, this.reportLagHours);
    const items: SettlementReport['items'] = [];
    for (const date of reportDatesOf(period.until, period.since)) {
      const fileName = reportFileOf(date);
      const csv = await this.reports.download(fileName);
      if (csv === null) continue;
      items.push(...settlementItemsOfReport(parseReport(csv, fileName), { merchantAccount: this.mid, deviceId, ...period }));
    }
    return { deviceId, batchReference, closedAt: until, items };
  }

  /** A TransactionStatusRequest naming `original`, in a pair of its own. */
  private async read(deviceId: string, original: MessageRef): Promise<StatusRead> {
    const pair = ourPair(readServiceIdOf(randomUUID()));
    const answer: CloudDeviceApiResponse = await this.call('read the transaction status', () =>
      this.api.sync(this.mid, deviceId, transactionStatusRequestOf(deviceId, original, pair.serviceId)),
    );
    return statusReadOf(answer, pair, original);
  }

  /** Runs one library call; its errors become the port's (unreachable: retry; rejected: don't). */
  private async call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw translate(err, what, this.apiKey);
    }
  }
}

function ignoreRefusal(err: unknown): null {
  // An abort refused (the payment finished first): the read that follows tells.
  if (err instanceof AcquirerRejectedError) return null;
  throw err;
}

/** The API key, should Adyen (or anything in between) quote it back: only its last 4 characters. */
function masked(text: string, apiKey: string): string {
  return apiKey.length > 4 ? text.split(apiKey).join(`••••${apiKey.slice(-4)}`) : text;
}

/** The library's errors as the port's: no answer, a 5xx or 429 unreachable (retry); any other status a refusal, with Adyen's words. */
export function translate(err: unknown, what: string, apiKey: string): Error {
  if (err instanceof AcquirerRejectedError || err instanceof AcquirerUnreachableError) return err;
  const status = (err as { statusCode?: number })?.statusCode ?? 0;
  if (err instanceof HttpClientException && status >= 400 && status < 500 && status !== 429) {
    const said = err.apiError?.message ?? err.responseBody ?? err.message;
    return new AcquirerRejectedError(
      masked(`adyen refused to ${what}: ${status} ${err.errorCode ?? ''} ${said}`.replace(/\s+/g, ' ').trim(), apiKey),
      status,
      err.errorCode,
    );
  }
  const message = (err as Error)?.message ?? String(err);
  return new AcquirerUnreachableError(masked(`adyen did not answer to ${what}: ${status ? `${status} ` : ''}${message}`, apiKey));
}
