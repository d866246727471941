import {
  type AcquirerDispute,
  type AcquirerDisputes,
  type ReportPayout,
  type AcquirerPayouts,
  type AcquirerPort,
  AcquirerRejectedError,
  AcquirerUnreachableError,
  type BillStatus,
  type CompleteAuthorizationRequest,
  type DeviceCapabilities,
  type DisputeEvidence,
  type RefundRequest,
  type RefundStatus,
  type SendBillRequest,
  type SendBillResult,
  type SettlementReport,
  type VoidStatus,
} from './port';

/**
 * The acquirer port over HTTP, as a real cloud-terminal adapter would be: it reaches the sandbox
 * acquirer's /acquirer/v1 API. No answer (network error, timeout) or a 5xx means the outcome is
 * unknown (AcquirerUnreachableError, retryable); any other 4xx than send-bill's defined outcomes
 * is a refusal (AcquirerRejectedError).
 *
 * One instance per acquirer account: `merchantAccountId` (the MID) goes with every bill and every
 * close, so the sandbox books them under that account. The installation default sends none (the
 * sandbox books it under SANDBOX). Other calls name a bill the sandbox already knows by reference.
 */
export class HttpAcquirer implements AcquirerPort {
  readonly name = 'sandbox';
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  readonly merchantAccountId: string | undefined;

  constructor(baseUrl: string, opts: { timeoutMs?: number; merchantAccountId?: string } = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.timeoutMs = opts.timeoutMs ?? 5000;
    this.merchantAccountId = opts.merchantAccountId;
  }

  getDevice(deviceId: string): Promise<DeviceCapabilities> {
    return this.call<DeviceCapabilities>('GET', this.device(deviceId));
  }

  sendBill(request: SendBillRequest): Promise<SendBillResult> {
    const { deviceId, ...bill } = request;
    // The sandbox's simulated device keeps its own two-step setting (`/sim/devices/{id}`), as a
    // device that decides its capture itself would: the terminal's configuration is not sent.
    delete bill.twoStep;
    // 409 DEVICE_BUSY and 422 MODE_UNSUPPORTED are answers, not failures.
    return this.call<SendBillResult>('POST', `${this.device(deviceId)}/bills`, { ...bill, ...this.books() }, ['DEVICE_BUSY', 'MODE_UNSUPPORTED']);
  }

  getBillStatus(deviceId: string, acquirerRef: string): Promise<BillStatus> {
    return this.call<BillStatus>('GET', `${this.device(deviceId)}/bills/${enc(acquirerRef)}`);
  }

  withdrawBill(deviceId: string, acquirerRef: string): Promise<BillStatus> {
    return this.call<BillStatus>('POST', `${this.device(deviceId)}/bills/${enc(acquirerRef)}/withdraw`);
  }

  submitVoid(deviceId: string, acquirerRef: string, voidReference: string): Promise<VoidStatus> {
    return this.call<VoidStatus>('POST', `${this.device(deviceId)}/bills/${enc(acquirerRef)}/voids`, { voidReference });
  }

  getVoidStatus(deviceId: string, voidReference: string): Promise<VoidStatus> {
    return this.call<VoidStatus>('GET', `${this.device(deviceId)}/voids/${enc(voidReference)}`);
  }

  /** The sandbox keeps its own batches (what it reported before is never reported again): `since` is not needed. */
  closeBatch(deviceId: string, batchReference: string, until: string): Promise<SettlementReport> {
    return this.call<SettlementReport>('POST', `${this.device(deviceId)}/settlements`, { batchReference, until, ...this.books() });
  }

  completeAuthorization(deviceId: string, acquirerRef: string, request: CompleteAuthorizationRequest): Promise<BillStatus> {
    return this.call<BillStatus>('POST', `${this.device(deviceId)}/bills/${enc(acquirerRef)}/complete`, request);
  }

  releaseAuthorization(deviceId: string, acquirerRef: string): Promise<BillStatus> {
    return this.call<BillStatus>('POST', `${this.device(deviceId)}/bills/${enc(acquirerRef)}/release`);
  }

  refund(deviceId: string, acquirerRef: string, request: RefundRequest): Promise<RefundStatus> {
    return this.call<RefundStatus>('POST', `${this.device(deviceId)}/bills/${enc(acquirerRef)}/refunds`, request);
  }

  getRefund(deviceId: string, refundReference: string): Promise<RefundStatus> {
    return this.call<RefundStatus>('GET', `${this.device(deviceId)}/refunds/${enc(refundReference)}`);
  }

  /** Disputes of the sandbox's bills (docs/disputes.md, "The sandbox"), under the device that took the bill. */
  readonly disputes: AcquirerDisputes = {
    getDispute: (deviceId: string, disputeId: string) => this.call<AcquirerDispute>('GET', `${this.device(deviceId)}/disputes/${enc(disputeId)}`),
    submitDisputeEvidence: (deviceId: string, disputeId: string, evidence: DisputeEvidence) =>
      this.call<AcquirerDispute>('POST', `${this.device(deviceId)}/disputes/${enc(disputeId)}/evidence`, evidence),
    acceptDispute: (deviceId: string, disputeId: string) => this.call<AcquirerDispute>('POST', `${this.device(deviceId)}/disputes/${enc(disputeId)}/accept`),
  };

  /** Payouts of the sandbox's reports (docs/payouts-and-fees.md), under the device whose report each pays: each pays one report. */
  readonly payouts: AcquirerPayouts = {
    getPayout: async (deviceId: string | null, payoutId: string): Promise<ReportPayout> => {
      if (deviceId === null) throw new AcquirerRejectedError('a sandbox payout is read under the device whose report it pays', 400);
      return { ...(await this.call<Omit<ReportPayout, 'pays'>>('GET', `${this.device(deviceId)}/payouts/${enc(payoutId)}`)), pays: 'REPORT' };
    },
  };

  /** The account's MID for the sandbox's books; nothing for the installation default. */
  private books(): { merchantAccountId?: string } {
    return this.merchantAccountId === undefined ? {} : { merchantAccountId: this.merchantAccountId };
  }

  private device(deviceId: string): string {
    return `/acquirer/v1/devices/${enc(deviceId)}`;
  }

  private async call<T>(method: string, path: string, body?: object, outcomes: string[] = []): Promise<T> {
    const what = `${method} ${path}`;
    let status: number;
    let payload: unknown;
    try {
      const res = await fetch(this.baseUrl + path, {
        method,
        headers: body ? { 'content-type': 'application/json', accept: 'application/json' } : { accept: 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(this.timeoutMs), // covers reading the body too
      });
      status = res.status;
      const text = await res.text();
      payload = text ? safeJson(text) : undefined;
    } catch (err) {
      throw new AcquirerUnreachableError(`acquirer did not answer ${what}: ${describe(err)}`);
    }
    if (status >= 500) throw new AcquirerUnreachableError(`acquirer answered ${status} to ${what}`);
    if (status >= 200 && status < 300 && payload !== undefined) return payload as T;
    const outcome = (payload as { outcome?: unknown } | undefined)?.outcome;
    if (status >= 400 && typeof outcome === 'string' && outcomes.includes(outcome)) return payload as T;
    const message = (payload as { message?: unknown } | undefined)?.message;
    throw new AcquirerRejectedError(`acquirer refused ${what}: ${status}${typeof message === 'string' ? ` ${message}` : ''}`, status);
  }
}

const enc = encodeURIComponent;

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describe(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError') return 'timed out';
  return [e?.message, e?.cause?.code ?? e?.cause?.message].filter(Boolean).join(': ') || String(err);
}
