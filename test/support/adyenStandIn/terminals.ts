import { randomBytes } from 'node:crypto';
import type { StandInModification } from './modifications';
import * as answer from './responses';
import type { Customer, PaymentFacts, TransactionID } from './responses';

/**
 * The simulated terminals behind the stand-in's cloud, one per POIID, as Adyen's mock terminal
 * plays them but with state: a PaymentRequest puts a transaction on the device until the customer
 * (a test) acts or the merchant aborts it; a second one meanwhile is Busy; a status read answers
 * what the named transaction got; a reversal voids or refunds an approved payment. A request
 * repeated with the same SaleID/ServiceID gets the first one's answer and changes nothing.
 */
export type TransactionState = 'WAITING' | 'APPROVED' | 'DECLINED' | 'CANCELLED' | 'ABORTED' | 'BUSY';

export interface StandInTransaction extends PaymentFacts {
  poiid: string;
  saleId: string;
  serviceId: string;
  /** The cloud endpoint it came through; an async one's outcome is posted as an event notification. */
  mode: 'sync' | 'async';
  state: TransactionState;
  /** SaleToAcquirerData asked for a pre-authorisation (`authorisationType=PreAuth`). */
  preAuth: boolean;
  /** SaleToAcquirerData carried the tender option AllowPartialAuthorisation: a smaller balance is approved, not declined. */
  partialAllowed: boolean;
  /** SaleToAcquirerData carried the tender option AskGratuity: the customer chooses a tip on the device. */
  tipAsked?: boolean;
  /** The tip inside `amount` once paid (AmountsResp.TipAmount): the POS's AmountsReq.TipAmount, or the customer's choice. */
  tip?: number;
  /** The amount asked, once a card approved less (`amount` is then what it approved, as Adyen's AuthorizedAmount). */
  requestedAmount?: number;
  /** Taken on the device without a request from the sale system (offlinePayment). */
  offline: boolean;
  /** The whole answer (`{ SaleToPOIResponse }`) once decided. */
  response?: any;
  /** Sum of the reversals (void or refunds) so far. */
  reversedAmount: number;
  /** A pre-authorisation's Checkout modifications (capture, cancel), in order. */
  modifications: StandInModification[];
  /** What a capture of the pre-authorisation took (major units); unset until captured. */
  captured?: number;
  /** The pre-authorisation was cancelled (released). */
  cancelled?: boolean;
  createdAt: string;
  decidedAt?: string;
}

export interface StandInReversal {
  poiid: string;
  saleId: string;
  serviceId: string;
  /** Whole amount without ReversedAmount: a void; with ReversedAmount: a referenced refund. */
  kind: 'void' | 'refund';
  amount: number;
  currency: string;
  merchantAccount: string;
  pspReference: string;
  originalPsp: string;
  /** The original payment's merchant reference (its SaleTransactionID). */
  merchantReference: string;
  /** The reversal's own reference (its SaleTransactionID): Adyen's modification merchant reference. */
  reference: string;
  response: any;
  at: string;
}

export interface CardChoice {
  cardBrand?: string;
  last4?: string;
  /**
   * The card's available balance (major units). Below the amount, `pay` is approved for the balance
   * when the sale allowed partial authorisation (AuthorizedAmount below RequestedAmount), and
   * declined as Adyen declines it otherwise (the mock terminal's 124 "Not enough balance" answer).
   */
  balance?: number;
  /**
   * Tests only: approve the balance even though the sale did not allow partial authorisation.
   * Adyen says this does not happen (the tender option is what asks the issuer for the available
   * amount); it lets a test show what the service does if it ever did.
   */
  partialEvenIfNotAllowed?: boolean;
  /** The tip the customer chooses on the device (major units), used only when the sale asked (AskGratuity). */
  tip?: number;
}

export interface SimulatedDevice {
  poiid: string;
  /** Status per the device-status fixture; OFFLINE devices get the cloud's UnreachableHost / Reject answers. */
  status: 'ONLINE' | 'OFFLINE';
  /** No answer at all: every request for the device is dropped unprocessed. */
  unreachable: boolean;
  /** The next request (a message name: the next such request) is processed, its answer lost (connection dropped). */
  loseNextAnswer: boolean | string;
  /** When set, the customer acts so on every new transaction at once. */
  autoCustomer: { action: Customer; card?: CardChoice } | null;
  current: StandInTransaction | null;
  transactions: StandInTransaction[];
  reversals: StandInReversal[];
}

export interface TerminalEvents {
  decided(tx: StandInTransaction): void;
  reversed(rev: StandInReversal): void;
}

export interface Handled {
  /** An answer the cloud gives at once, without the terminal (device offline). */
  immediate?: any;
  result: Promise<any>;
  /** A repeat of an earlier request (same SaleID/ServiceID): nothing new happened. */
  repeated: boolean;
}

interface Seen {
  category: string;
  tx?: StandInTransaction;
  answer?: any;
}

const pspReference = () =>
  randomBytes(12)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '')
    .toUpperCase()
    .slice(0, 16)
    .padEnd(16, 'X');
let tender = 0;
/** Adyen's POI TransactionID is `<tender reference>.<PSP reference>`. */
const poiTransaction = (psp: string): TransactionID => ({
  TransactionID: `v4W5${Date.now()}${String(++tender).padStart(3, '0')}.${psp}`,
  TimeStamp: answer.nowStamp(),
});

export class Terminals {
  readonly devices = new Map<string, SimulatedDevice>();
  private readonly seen = new Map<string, Seen>();
  private readonly waiters = new Map<StandInTransaction, { promise: Promise<any>; resolve: (v: any) => void }>();

  constructor(private readonly events: TerminalEvents) {}

  device(poiid: string): SimulatedDevice {
    let d = this.devices.get(poiid);
    if (!d) {
      d = { poiid, status: 'ONLINE', unreachable: false, loseNextAnswer: false, autoCustomer: null, current: null, transactions: [], reversals: [] };
      this.devices.set(poiid, d);
    }
    return d;
  }

  handle(operation: 'sync' | 'async', merchantAccount: string, poiid: string, message: any, raw: string): Handled {
    const h = message.MessageHeader;
    if (this.device(poiid).status === 'OFFLINE') {
      const immediate = operation === 'sync' ? answer.unreachableHost(h) : answer.rejected(h, raw);
      return { immediate, result: Promise.resolve(immediate), repeated: false };
    }
    if (message.PaymentRequest) return this.payment(operation, merchantAccount, poiid, message);
    if (message.TransactionStatusRequest) return this.settled(this.status(h, message.TransactionStatusRequest));
    if (message.AbortRequest) return this.abort(h, message.AbortRequest, raw);
    if (message.ReversalRequest) return this.reversal(merchantAccount, poiid, h, message.ReversalRequest);
    return this.settled(answer.rejected(h, raw, `message=${Object.keys(message).find((k) => k !== 'MessageHeader')}+is+not+simulated`));
  }

  /** The customer acts on the transaction waiting on the device. */
  customer(poiid: string, action: Customer, card: CardChoice = {}): StandInTransaction {
    const tx = this.device(poiid).current;
    if (!tx) throw new Error(`no transaction is waiting on ${poiid}`);
    // Without a card named, a decline keeps the fixture's card; an approval shows the success fixture's (mc, 3511).
    const chosen = card.cardBrand || card.last4 ? { brand: card.cardBrand ?? 'mc', last4: card.last4 ?? '3511' } : undefined;
    const short = action === 'pay' && card.balance !== undefined && card.balance < tx.amount;
    const partial = short && (tx.partialAllowed || card.partialEvenIfNotAllowed === true);
    if (partial) {
      tx.requestedAmount = tx.amount;
      tx.amount = card.balance!; // what Adyen authorised: captures, reversals and reports work on it
    }
    if (action === 'pay' && !short && tx.tipAsked && card.tip !== undefined && card.tip > 0) tx.tip = card.tip;
    // What Adyen authorises is the amount and the tip: captures, reversals and reports work on it.
    if (action === 'pay' && tx.tip !== undefined) tx.amount = Math.round((tx.amount + tx.tip) * 100) / 100;
    const facts: PaymentFacts = { ...tx, card: chosen };
    const digits = short && !partial ? '124' : answer.declineDigits(tx.amount);
    const [state, response]: [TransactionState, any] =
      action === 'pay' && digits
        ? ['DECLINED', answer.declined(facts, digits)]
        : action === 'pay'
          ? ['APPROVED', answer.approved(facts)]
          : action === 'decline'
            ? ['DECLINED', answer.refused(facts)]
            : ['CANCELLED', answer.aborted(facts, 'shopper')];
    const shown = response.SaleToPOIResponse.PaymentResponse.PaymentResult?.PaymentInstrumentData?.CardData;
    tx.card = shown?.PaymentBrand ? { brand: shown.PaymentBrand, last4: String(shown.MaskedPan).slice(-4) } : chosen;
    this.decide(tx, state, response);
    return tx;
  }

  /** A payment taken on the device without the sale system (standalone), approved at once. */
  offlinePayment(poiid: string, p: { amount: number; currency: string; merchantAccount?: string } & CardChoice): StandInTransaction {
    const psp = pspReference();
    const header = {
      ProtocolVersion: '3.0',
      MessageClass: 'Service',
      MessageCategory: 'Payment',
      MessageType: 'Request',
      SaleID: 'OFFLINE',
      ServiceID: psp.slice(0, 10),
      POIID: poiid,
    };
    const tx = this.newTransaction(
      'sync',
      p.merchantAccount ?? 'ADYEN_MERCHANT_ACCOUNT',
      poiid,
      header,
      { TransactionID: `offline-${psp}`, TimeStamp: answer.nowStamp() },
      p.amount,
      p.currency,
      false,
    );
    tx.offline = true;
    this.device(poiid).transactions.push(tx);
    tx.card = { brand: p.cardBrand ?? 'mc', last4: p.last4 ?? '3511' };
    this.decide(tx, 'APPROVED', answer.approved(tx));
    return tx;
  }

  private settled(doc: any): Handled {
    return { result: Promise.resolve(doc), repeated: false };
  }

  private payment(operation: 'sync' | 'async', merchantAccount: string, poiid: string, message: any): Handled {
    const h = message.MessageHeader;
    const seen = this.seen.get(key(h.SaleID, h.ServiceID));
    if (seen?.tx) return { result: this.waiters.get(seen.tx)!.promise, repeated: true };
    const req = message.PaymentRequest;
    const amounts = req.PaymentTransaction.AmountsReq;
    const preAuth = preAuthAsked(req.SaleData.SaleToAcquirerData);
    const tx = this.newTransaction(operation, merchantAccount, poiid, h, req.SaleData.SaleTransactionID, amounts.RequestedAmount, amounts.Currency, preAuth);
    tx.partialAllowed = partialAllowed(req.SaleData.SaleToAcquirerData);
    tx.tipAsked = tenderOptionNamed(req.SaleData.SaleToAcquirerData, 'AskGratuity');
    // A tip the POS sent is shown on top and charged with the amount.
    if (typeof amounts.TipAmount === 'number' && amounts.TipAmount > 0) tx.tip = amounts.TipAmount;
    this.seen.set(key(h.SaleID, h.ServiceID), { category: 'Payment', tx });
    const device = this.device(poiid);
    device.transactions.push(tx);
    if (device.current) {
      this.decide(tx, 'BUSY', answer.busy(h, tx.saleTransactionId));
    } else {
      device.current = tx;
      const auto = device.autoCustomer;
      if (auto) setImmediate(() => tx.state === 'WAITING' && this.customer(poiid, auto.action, auto.card));
    }
    return { result: this.waiters.get(tx)!.promise, repeated: false };
  }

  private newTransaction(
    mode: 'sync' | 'async',
    merchantAccount: string,
    poiid: string,
    header: any,
    sale: TransactionID,
    amount: number,
    currency: string,
    preAuth: boolean,
  ): StandInTransaction {
    const psp = pspReference();
    const tx: StandInTransaction = {
      poiid,
      saleId: header.SaleID,
      serviceId: header.ServiceID,
      header,
      merchantAccount,
      saleTransactionId: { ...sale },
      poiTransactionId: poiTransaction(psp),
      pspReference: psp,
      amount,
      currency,
      mode,
      state: 'WAITING',
      preAuth,
      partialAllowed: false,
      offline: false,
      reversedAmount: 0,
      modifications: [],
      createdAt: answer.nowStamp(),
    };
    let resolve!: (v: any) => void;
    const promise = new Promise<any>((r) => (resolve = r));
    this.waiters.set(tx, { promise, resolve });
    return tx;
  }

  private decide(tx: StandInTransaction, state: TransactionState, response: any) {
    Object.assign(tx, { state, response, decidedAt: answer.nowStamp() });
    const device = this.device(tx.poiid);
    if (device.current === tx) device.current = null;
    this.waiters.get(tx)!.resolve(response);
    this.events.decided(tx);
  }

  private referenced(h: any, ref: any = {}): Seen | undefined {
    if (ref.ServiceID) return this.seen.get(key(ref.SaleID ?? h.SaleID, ref.ServiceID));
    // No reference: the last transaction on the device (Adyen's "last transaction" status).
    const last = this.device(h.POIID).transactions.at(-1);
    return last && { category: 'Payment', tx: last };
  }

  private status(h: any, req: any): any {
    const ref = req.MessageReference ?? {};
    const seen = this.referenced(h, ref);
    const category = ref.MessageCategory ?? seen?.category ?? 'Payment';
    const reference = { MessageCategory: category, SaleID: ref.SaleID ?? seen?.tx?.saleId ?? h.SaleID, ServiceID: ref.ServiceID ?? seen?.tx?.serviceId };
    if (!seen || seen.category !== category) return answer.transactionStatus(h, reference, 'NotFound');
    if (seen.tx) return answer.transactionStatus(h, reference, seen.tx.state === 'WAITING' ? 'InProgress' : seen.tx.response);
    return answer.transactionStatus(h, reference, seen.answer);
  }

  private abort(h: any, req: any, raw: string): Handled {
    const tx = this.referenced(h, req.MessageReference)?.tx;
    if (!tx || tx.poiid !== h.POIID) return this.settled(answer.rejected(h, raw, 'message=Transaction+not+found'));
    // Only a transaction still waiting can be withdrawn; otherwise the answer is what it got.
    if (tx.state === 'WAITING') this.decide(tx, 'ABORTED', answer.aborted(tx, 'merchant'));
    return this.settled(tx.response);
  }

  private reversal(merchantAccount: string, poiid: string, h: any, req: any): Handled {
    const k = key(h.SaleID, h.ServiceID);
    const seen = this.seen.get(k);
    if (seen?.answer) return { result: Promise.resolve(seen.answer), repeated: true };
    const original = req.OriginalPOITransaction?.POITransactionID?.TransactionID;
    const tx = [...this.devices.values()]
      .flatMap((d) => d.transactions)
      .find((t) => t.poiTransactionId.TransactionID === original || t.pspReference === original);
    // A pre-authorisation is reversible once captured, for what the capture took (docs/acquirers.md).
    const reversible = tx?.preAuth ? (tx.captured ?? 0) : (tx?.amount ?? 0);
    const remaining = tx ? round(reversible - tx.reversedAmount) : 0;
    const amount = req.ReversedAmount ?? remaining;
    // Adyen's partial referenced refund names its currency in SaleData.SaleToAcquirerData (`currency=EUR`) next to ReversedAmount.
    const currency = req.ReversedAmount === undefined ? undefined : currencyOf(req.SaleData?.SaleToAcquirerData);
    let doc: any;
    if (req.ReversedAmount !== undefined && !currency)
      doc = answer.reversal(h, {
        error: 'MessageFormat',
        message: 'A refund with ReversedAmount needs its currency in SaleData.SaleToAcquirerData (currency=...)',
      });
    else if (!tx) doc = answer.reversal(h, { error: 'NotFound', message: `Original transaction ${original} not found` });
    else if (currency && currency !== tx.currency)
      doc = answer.reversal(h, { error: 'NotAllowed', message: `Currency ${currency} is not the original transaction's (${tx.currency})` });
    else if (tx.state !== 'APPROVED') doc = answer.reversal(h, { error: 'NotAllowed', message: `Original transaction is ${tx.state}` });
    else if (tx.preAuth && tx.cancelled) doc = answer.reversal(h, { error: 'NotAllowed', message: 'Original pre-authorisation is cancelled' });
    else if (tx.preAuth && tx.captured === undefined)
      doc = answer.reversal(h, { error: 'NotAllowed', message: 'Original pre-authorisation is not captured: cancel it instead' });
    else if (amount <= 0 || amount > remaining + 1e-9)
      doc = answer.reversal(h, { error: 'NotAllowed', message: `Amount ${amount} exceeds what remains (${remaining})` });
    else {
      const psp = pspReference();
      doc = answer.reversal(h, { poiTransactionId: poiTransaction(psp), pspReference: psp, originalPsp: tx.pspReference, amount });
      tx.reversedAmount = round(tx.reversedAmount + amount);
      const rev: StandInReversal = {
        poiid,
        saleId: h.SaleID,
        serviceId: h.ServiceID,
        kind: req.ReversedAmount === undefined ? 'void' : 'refund',
        amount,
        currency: tx.currency,
        merchantAccount,
        pspReference: psp,
        originalPsp: tx.pspReference,
        merchantReference: tx.saleTransactionId.TransactionID,
        reference: req.SaleData?.SaleTransactionID?.TransactionID ?? '',
        response: doc,
        at: answer.nowStamp(),
      };
      this.device(poiid).reversals.push(rev);
      this.events.reversed(rev);
    }
    this.seen.set(k, { category: 'Reversal', answer: doc });
    return { result: Promise.resolve(doc), repeated: false };
  }
}

/** SaleToAcquirerData in either of Adyen's formats: `key=value&...`, or base64 JSON (the library's SaleToAcquirerDataParser). */
function preAuthAsked(data: string | undefined): boolean {
  if (!data) return false;
  if (/(^|&)authorisationType=PreAuth(&|$)/.test(data)) return true;
  try {
    return JSON.parse(Buffer.from(data, 'base64').toString('utf8'))?.authorisationType === 'PreAuth';
  } catch {
    return false;
  }
}

/** The `currency` SaleToAcquirerData names, in either format (`currency=EUR&...`, or base64 JSON). */
function currencyOf(data: string | undefined): string | undefined {
  if (!data) return undefined;
  if (/(^|&)currency=/.test(data)) return new URLSearchParams(data).get('currency') || undefined;
  try {
    const named = JSON.parse(Buffer.from(data, 'base64').toString('utf8'))?.currency;
    return typeof named === 'string' && named ? named : undefined;
  } catch {
    return undefined;
  }
}

/** SaleToAcquirerData's tender options (`tenderOption`, comma-separated) name AllowPartialAuthorisation, in either format. */
function partialAllowed(data: string | undefined): boolean {
  return tenderOptionNamed(data, 'AllowPartialAuthorisation');
}

/** SaleToAcquirerData's tender options (`tenderOption`, comma-separated) name `option`, in either format. */
function tenderOptionNamed(data: string | undefined, option: string): boolean {
  if (!data) return false;
  const named = (options: unknown) => typeof options === 'string' && options.split(',').some((o) => o.trim() === option);
  if (/(^|&)tenderOption=/.test(data)) return named(new URLSearchParams(data).get('tenderOption'));
  try {
    return named(JSON.parse(Buffer.from(data, 'base64').toString('utf8'))?.tenderOption);
  } catch {
    return false;
  }
}

const key = (saleId: string, serviceId: string) => `${saleId}\u0000${serviceId}`;
const round = (n: number) => Math.round(n * 1e6) / 1e6;
