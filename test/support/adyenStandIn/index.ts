import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Modifications, type StandInModification } from './modifications';
import { type ChargebackOptions, Disputes, type StandInDispute } from './disputes';
import { Notifier, type SentNotification } from './notifications';
import type { Customer } from './responses';
import { adyenHandler, type RecordedAdyenRequest } from './server';
import { type CardChoice, type SimulatedDevice, type StandInTransaction, Terminals } from './terminals';
import { AdyenRequestValidator } from './validation';

export type { RecordedAdyenRequest } from './server';
export type { SentNotification } from './notifications';
export type { StandInModification } from './modifications';
export type { ChargebackOptions, StandInDispute } from './disputes';
export type { CardChoice, SimulatedDevice, StandInReversal, StandInTransaction, TransactionState } from './terminals';
export type { Customer } from './responses';

/**
 * A loopback Adyen for the tests (docs/acquirers.md, "Adyen Terminal API (cloud)"): the cloud device API (`/v1/merchants/{merchantAccount}/devices/{deviceId}/sync`,
 * `/async`, `/status`, and `/v1/merchants/{merchantAccount}/connectedDevices`, the paths
 * @adyen/api-library's CloudDeviceApi sends under https://device-api-test.adyen.com) and Checkout's
 * modifications of a pre-authorisation (`/v72/payments/{paymentPspReference}/captures` and
 * `/cancels`, under https://checkout-test.adyen.com; `/checkout/v72/...` as a LIVE host has them), every
 * request validated against Adyen's OpenAPI documents, answered from Adyen's fixtures by
 * simulated terminals that the test drives (the customer, the network); and Adyen's report
 * downloads (`/reports/download/MerchantAccount/{merchantAccount}/{fileName}`, ./reports.ts), the
 * daily Payment accounting report built from those terminals' transactions; and chargebacks with
 * the Disputes API (`/ca/services/DisputeService/v30/...`, ./disputes.ts).
 */
export interface AdyenStandInOptions {
  /** Where Adyen's event and standard notifications are posted; none are posted without it. */
  notifyUrl?: string;
  /** HMAC key (hex) of the standard notifications; a random one when absent (see `hmacKey`). */
  hmacKey?: string;
  /** When given, only these X-API-Keys are accepted. */
  apiKeys?: string[];
  /** Close the Terminal API's object schemas to the properties the document names (default true). */
  strict?: boolean;
}

export interface AdyenStandIn {
  /** The base URL to put where the library has https://device-api-test.adyen.com (ADYEN_API_BASE); paths start with /v1. */
  url: string;
  hmacKey: string;
  /** Every request received, in order, with its validation result and what it was answered. */
  requests: RecordedAdyenRequest[];
  /** The requests that did not validate (each was refused): a test expects this to stay empty. */
  invalid: RecordedAdyenRequest[];
  /** Every event and standard notification posted (or, without notifyUrl, that would have been). */
  notifications: SentNotification[];
  /** The simulated terminal with this POIID (created on first use), its transactions, reversals and settings. */
  device(poiid: string): SimulatedDevice;
  /** The customer acts on the transaction waiting on the device ('pay' is declined when the amount ends in 124, 125, 126, 127, 128 or 134). */
  customer(poiid: string, action: Customer, card?: CardChoice): StandInTransaction;
  /** The customer acts so on every future transaction on the device, at once; null to stop. */
  autoCustomer(poiid: string, action: Customer | null, card?: CardChoice): void;
  /** The device's next request (or, with `message`, its next such request: 'PaymentRequest') is processed but its answer is lost (the connection drops). */
  loseNextAnswer(poiid: string, message?: string): void;
  /** While on, requests for the device get no answer at all (the connection drops, nothing is processed). */
  unreachable(poiid: string, on: boolean): void;
  /** While on, report downloads (`/reports/download/...`) get no answer at all (the connection drops). */
  reportsUnreachable(on: boolean): void;
  /** While on, the device is OFFLINE at the cloud: status says so, /sync answers UnreachableHost, /async an EventNotification Reject (the library's fixtures). */
  deviceOffline(poiid: string, on: boolean): void;
  /** A payment taken on the device without the sale system (standalone); approved, notified, not answered to anyone. */
  offlinePayment(poiid: string, payment: { amount: number; currency: string; merchantAccount?: string } & CardChoice): StandInTransaction;
  /**
   * The next Checkout modification call (capture or cancel) fails in the network: 'dropped' never
   * reaches Adyen; 'lost' is processed and its answer lost. Either way the caller gets no answer.
   * `times`: so many modification calls in a row (default 1).
   */
  loseNextModification(how?: 'dropped' | 'lost', times?: number): void;
  /** Every capture and cancel Adyen took, in order, with the payment (pre-authorisation) each modified. */
  modifications(): { tx: StandInTransaction; modification: StandInModification }[];
  /**
   * The cardholder's bank disputes an approved payment of the device: a chargeback Adyen notifies
   * (NOTIFICATION_OF_CHARGEBACK, signed) and then answers for through its Disputes API.
   */
  openChargeback(poiid: string, paymentPspReference: string, opts?: ChargebackOptions): StandInDispute;
  /** The scheme decides a defended dispute: CHARGEBACK_REVERSED (WON) or SECOND_CHARGEBACK (LOST), notified. */
  decideChargeback(disputePspReference: string, outcome: 'WON' | 'LOST'): void;
  /** The issuer charges a won dispute back again: SECOND_CHARGEBACK notified, a `SecondChargeback` booked. */
  secondChargeback(disputePspReference: string): void;
  /** Every dispute opened, by its pspReference. */
  disputes: Map<string, StandInDispute>;
  /** Where notifications are posted from now on (undefined: nowhere). */
  notifyTo(url: string | undefined): void;
  /** The next standard notification is signed with a wrong key. */
  forgeNextNotification(): void;
  /** Posts an earlier notification again, unchanged (default the last). */
  replayNotification(index?: number): void;
  /** Resolves when every notification posted so far has been answered. */
  notificationsSettled(): Promise<void>;
  close(): Promise<void>;
}

export async function startAdyenStandIn(opts: AdyenStandInOptions = {}): Promise<AdyenStandIn> {
  const notifier = new Notifier(opts.notifyUrl, opts.hmacKey);
  const terminals = new Terminals({ decided: (tx) => notifier.payment(tx), reversed: (rev) => notifier.reversal(rev) });
  const requests: RecordedAdyenRequest[] = [];
  const invalid: RecordedAdyenRequest[] = [];
  const validator = new AdyenRequestValidator(opts.strict ?? true);
  const modifications = new Modifications(terminals);
  const disputes = new Disputes(terminals, notifier, validator.disputes.examples);
  const faults: { nextModification: 'dropped' | 'lost' | null; times: number } = { nextModification: null, times: 0 };
  const reports = { unreachable: false };
  const server = http.createServer(
    adyenHandler({ validator, terminals, notifier, requests, invalid, apiKeys: opts.apiKeys, modifications, disputes, faults, reports }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const device = (poiid: string) => terminals.device(poiid);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hmacKey: notifier.hmacKey,
    requests,
    invalid,
    notifications: notifier.sent,
    device,
    customer: (poiid, action, card) => terminals.customer(poiid, action, card),
    autoCustomer: (poiid, action, card) => void (device(poiid).autoCustomer = action ? { action, card } : null),
    loseNextAnswer: (poiid, message) => void (device(poiid).loseNextAnswer = message ?? true),
    unreachable: (poiid, on) => void (device(poiid).unreachable = on),
    reportsUnreachable: (on) => void (reports.unreachable = on),
    deviceOffline: (poiid, on) => void (device(poiid).status = on ? 'OFFLINE' : 'ONLINE'),
    offlinePayment: (poiid, payment) => terminals.offlinePayment(poiid, payment),
    loseNextModification: (how = 'lost', times = 1) => void Object.assign(faults, { nextModification: how, times }),
    modifications: () =>
      [...terminals.devices.values()]
        .flatMap((d) => d.transactions)
        .flatMap((tx) => tx.modifications.map((modification) => ({ tx, modification })))
        .sort((a, b) => a.modification.at.localeCompare(b.modification.at)),
    openChargeback: (poiid, paymentPspReference, chargeback) => disputes.open(poiid, paymentPspReference, chargeback),
    decideChargeback: (psp, outcome) => disputes.decide(psp, outcome),
    secondChargeback: (psp) => disputes.secondChargeback(psp),
    disputes: disputes.all,
    notifyTo: (url) => void (notifier.url = url),
    forgeNextNotification: () => notifier.forgeNextNotification(),
    replayNotification: (index) => notifier.replayNotification(index),
    notificationsSettled: () => notifier.idle(),
    close: async () => {
      await notifier.idle();
      server.closeAllConnections(); // held /sync requests end with their connection
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
