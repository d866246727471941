import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CloudDeviceAPI, Client, EnvironmentEnum, hmacValidator } from '@adyen/api-library';
import { parse } from 'csv-parse/sync';
import { adyenFile, DECLINE_FIXTURES } from './fixtures';
import { type AdyenStandIn, startAdyenStandIn } from './index';
import { bookingOf, feesOf } from './reports';

/** The stand-in itself, over HTTP: what it accepts, refuses, answers and posts. */
const POIID = 'V400m-123456789';
const MERCHANT = 'TestMerchantPOS';
const HEADERS = { 'x-api-key': 'test-api-key', 'content-type': 'application/json' };

let standIn: AdyenStandIn;
let receiver: http.Server;
let received: any[] = [];
let serial = 0;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      received.push(JSON.parse(text));
      res.end('[accepted]');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  standIn = await startAdyenStandIn({
    notifyUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/notify`,
    hmacKey: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
  });
});

afterAll(async () => {
  await standIn.close();
  await new Promise<void>((r) => receiver.close(() => r()));
});

beforeEach(async () => {
  await standIn.notificationsSettled(); // late ones from the test before
  standIn.invalid.length = 0;
  received = [];
});

/** A request fixture with ids of our own (the fixtures' 12-character ServiceID breaks the schema's 10). */
function message(file: string, edit: (m: any) => void = () => undefined, poiid = POIID) {
  const doc = adyenFile(`fixtures/terminal-api/${file}`);
  const h = doc.SaleToPOIRequest.MessageHeader;
  Object.assign(h, { ServiceID: `S${String(++serial).padStart(9, '0')}`, SaleID: 'POS-1', POIID: poiid });
  edit(doc.SaleToPOIRequest);
  return doc;
}

const payment = (amount: number, poiid = POIID) =>
  message(
    'payment/paymentRequest.json',
    (m) => {
      m.PaymentRequest.PaymentTransaction.AmountsReq.RequestedAmount = amount;
      m.PaymentRequest.SaleData.SaleTransactionID = { TransactionID: `pay-${serial}`, TimeStamp: new Date().toISOString() };
    },
    poiid,
  );

const reference = (of: any) => ({
  MessageCategory: 'Payment',
  SaleID: of.SaleToPOIRequest.MessageHeader.SaleID,
  ServiceID: of.SaleToPOIRequest.MessageHeader.ServiceID,
});

async function send(mode: 'sync' | 'async', body: unknown, headers: Record<string, string> = HEADERS, poiid = POIID) {
  const res = await fetch(`${standIn.url}/v1/merchants/${MERCHANT}/devices/${poiid}/${mode}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, text, json: text.startsWith('{') ? JSON.parse(text) : undefined };
}

/** A /sync payment, held by the stand-in until the customer acts: its answer, once it waits on the device. */
async function pending(body: any, poiid = POIID) {
  const answer = send('sync', body, HEADERS, poiid);
  await waitFor(() => standIn.device(poiid).current?.serviceId === body.SaleToPOIRequest.MessageHeader.ServiceID);
  return { answer };
}

async function waitFor(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!check()) throw new Error('timed out waiting');
}

const paymentResponse = (doc: any) => doc.SaleToPOIResponse.PaymentResponse;

describe('validation of every request', () => {
  test('a valid PaymentRequest passes and puts a transaction on the device', async () => {
    const poiid = 'V400m-valid0001';
    const res = await send('async', payment(10, poiid), HEADERS, poiid);
    expect(res).toMatchObject({ status: 200, text: 'ok' });
    expect(standIn.requests.at(-1)).toMatchObject({
      operation: 'async',
      merchantAccount: MERCHANT,
      deviceId: poiid,
      apiKey: 'test-api-key',
      valid: true,
      errors: [],
    });
    expect(standIn.device(poiid).current).toMatchObject({ state: 'WAITING', amount: 10, currency: 'EUR' });
    expect(standIn.invalid).toEqual([]);
  });

  test("an invalid one is refused with Adyen's error body, recorded in invalid, and changes nothing", async () => {
    const poiid = 'V400m-invalid01';
    const tooLong = payment(10, poiid);
    tooLong.SaleToPOIRequest.MessageHeader.ServiceID = '1234567890AB'; // as in the mock terminal's own fixture
    const misspelt = payment(10, poiid);
    misspelt.SaleToPOIRequest.PaymentRequest.PaymentTransaction.AmountsReq.RequestedAmmount = 10;
    const badTime = payment(10, poiid);
    badTime.SaleToPOIRequest.PaymentRequest.SaleData.SaleTransactionID.TimeStamp = '12/06/2023';
    const otherDevice = payment(10, 'V400m-elsewhere');

    for (const body of [tooLong, misspelt, badTime, otherDevice]) {
      const res = await send('sync', body, HEADERS, poiid);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ status: 400, title: 'Bad Request', errorCode: '00_400' });
    }
    const noKey = await send('async', payment(10, poiid), { 'content-type': 'application/json' }, poiid);
    expect(noKey.status).toBe(401);
    const notJson = await fetch(`${standIn.url}/v1/merchants/${MERCHANT}/devices/${poiid}/sync`, {
      method: 'POST',
      headers: HEADERS,
      body: '{"SaleToPOIRequest":',
    });
    expect(notJson.status).toBe(400);
    const wrongPath = await fetch(`${standIn.url}/merchants/${MERCHANT}/devices/${poiid}/sync`, { method: 'POST', headers: HEADERS, body: '{}' });
    expect(wrongPath.status).toBe(400);

    expect(standIn.invalid.map((r) => r.errors)).toEqual([
      ['body/SaleToPOIRequest/MessageHeader/ServiceID must match pattern "^.{1,10}$"'],
      ['body/SaleToPOIRequest/PaymentRequest/PaymentTransaction/AmountsReq must NOT have additional properties (RequestedAmmount)'],
      ['body/SaleToPOIRequest/PaymentRequest/SaleData/SaleTransactionID/TimeStamp must match format "date-time"'],
      [`body MessageHeader.POIID V400m-elsewhere is not the path's deviceId ${poiid}`],
      ['header X-API-Key is missing (the cloud device API takes an API key)'],
      ['body is not JSON'],
      [`no such path in CloudDeviceService-v1.json: /merchants/${MERCHANT}/devices/${poiid}/sync`],
    ]);
    expect(standIn.invalid.every((r) => r.outcome === 'refused' && !r.valid)).toBe(true);
    expect(standIn.device(poiid).transactions).toEqual([]);
    standIn.invalid.length = 0;
  });

  test('a message whose category does not name its body is refused', async () => {
    const mixed = message('abortPayment/abortPaymentRequest.json', (m) => {
      m.MessageHeader.MessageCategory = 'Payment';
      m.AbortRequest.MessageReference.ServiceID = 'S1';
    });
    expect((await send('sync', mixed)).status).toBe(400);
    expect(standIn.invalid.map((r) => r.errors)).toEqual([['body MessageHeader.MessageCategory Payment does not name the message AbortRequest']]);
    standIn.invalid.length = 0;
  });
});

describe('payments as the mock terminal answers them', () => {
  test('a /sync payment is answered as paymentResponse.json once the customer pays, with the request ids', async () => {
    const req = payment(12.5);
    const { answer } = await pending(req);
    standIn.customer(POIID, 'pay', { cardBrand: 'visa', last4: '4242' });
    const res = await answer;
    expect(res.status).toBe(200);
    const fixture = adyenFile('fixtures/terminal-api/payment/paymentResponse.json').SaleToPOIResponse;
    expect(res.json.SaleToPOIResponse.MessageHeader).toEqual({
      ...fixture.MessageHeader,
      ServiceID: req.SaleToPOIRequest.MessageHeader.ServiceID,
      SaleID: 'POS-1',
    });
    const body = paymentResponse(res.json);
    expect(body.Response.Result).toBe('Success');
    expect(body.SaleData.SaleTransactionID).toEqual(req.SaleToPOIRequest.PaymentRequest.SaleData.SaleTransactionID);
    expect(body.PaymentResult.AmountsResp).toEqual({ AuthorizedAmount: 12.5, Currency: 'EUR' });
    expect(body.PaymentResult.PaymentAcquirerData).toMatchObject({ MerchantID: MERCHANT, AcquirerPOIID: POIID });
    expect(body.PaymentResult.PaymentInstrumentData.CardData).toMatchObject({ PaymentBrand: 'visa', MaskedPan: '411111 **** 4242' });
    const tx = standIn.device(POIID).transactions.at(-1)!;
    expect(body.POIData.POITransactionID.TransactionID).toBe(tx.poiTransactionId.TransactionID);
    expect(body.POIData.POITransactionID.TransactionID.endsWith(`.${tx.pspReference}`)).toBe(true);
    expect(new URLSearchParams(body.Response.AdditionalResponse).get('pspReference')).toBe(tx.pspReference);
    expect(standIn.device(POIID).current).toBeNull();
    expect(standIn.invalid).toEqual([]);
  });

  test.each(Object.keys(DECLINE_FIXTURES))('an amount ending in %s is declined as its fixture', async (digits) => {
    const req = payment(Number(`3${digits.slice(0, 1)}.${digits.slice(1)}`));
    const { answer } = await pending(req);
    standIn.customer(POIID, 'pay');
    const body = paymentResponse((await answer).json);
    const fixture = paymentResponse(adyenFile(DECLINE_FIXTURES[digits]));
    expect(body.Response).toEqual(fixture.Response);
    expect(body.PaymentResult.PaymentInstrumentData).toEqual(fixture.PaymentResult.PaymentInstrumentData);
    expect(body.PaymentResult.PaymentAcquirerData.MerchantID).toBe(MERCHANT);
    expect(standIn.device(POIID).transactions.at(-1)!.state).toBe('DECLINED');
    expect(standIn.invalid).toEqual([]);
  });

  test('a card with less than asked: Result Partial and the balance as AuthorizedAmount when the sale allowed partial authorisation, else Not enough balance', async () => {
    const partial = (tenderOption: string) => {
      const req = payment(40);
      req.SaleToPOIRequest.PaymentRequest.SaleData.SaleToAcquirerData = `tenderOption=${tenderOption}`;
      return req;
    };
    let { answer } = await pending(partial('ReceiptHandler,AllowPartialAuthorisation'));
    standIn.customer(POIID, 'pay', { balance: 25 });
    let body = paymentResponse((await answer).json);
    expect(body.Response.Result).toBe('Partial');
    expect(body.PaymentResult.AmountsResp).toEqual({ AuthorizedAmount: 25, Currency: 'EUR' });
    expect(standIn.device(POIID).transactions.at(-1)).toMatchObject({ state: 'APPROVED', amount: 25, requestedAmount: 40, partialAllowed: true });

    ({ answer } = await pending(partial('ReceiptHandler')));
    standIn.customer(POIID, 'pay', { balance: 25 });
    body = paymentResponse((await answer).json);
    expect(body.Response).toMatchObject({ Result: 'Failure', ErrorCondition: 'Refusal' });
    expect(standIn.device(POIID).transactions.at(-1)).toMatchObject({ state: 'DECLINED', amount: 40, partialAllowed: false });

    // what Adyen says does not happen, for tests of it: a partial approval of a sale that did not allow it
    ({ answer } = await pending(partial('ReceiptHandler')));
    standIn.customer(POIID, 'pay', { balance: 25, partialEvenIfNotAllowed: true });
    expect(paymentResponse((await answer).json).Response.Result).toBe('Partial');

    // the whole amount approved stays a Success
    ({ answer } = await pending(partial('AllowPartialAuthorisation')));
    standIn.customer(POIID, 'pay', { balance: 50 });
    expect(paymentResponse((await answer).json).Response.Result).toBe('Success');
    expect(standIn.invalid).toEqual([]);
  });

  test('a customer decline and cancel answer Refusal and Cancel', async () => {
    for (const [action, condition] of [
      ['decline', 'Refusal'],
      ['cancel', 'Cancel'],
    ] as const) {
      const req = payment(20);
      const { answer } = await pending(req);
      standIn.customer(POIID, action);
      expect(paymentResponse((await answer).json).Response).toMatchObject({ Result: 'Failure', ErrorCondition: condition });
    }
  });

  test('a second payment while one waits is Busy; the first one repeated creates nothing new', async () => {
    const poiid = 'V400m-busy00001';
    const first = payment(5, poiid);
    expect((await send('async', first, HEADERS, poiid)).text).toBe('ok');
    const second = payment(6, poiid);
    const busy = await send('sync', second, HEADERS, poiid);
    const fixture = adyenFile('fixtures/terminal-api/paymentBusy/paymentBusyResponse.json').SaleToPOIResponse;
    expect(paymentResponse(busy.json).Response).toEqual({ ...fixture.PaymentResponse.Response, AdditionalResponse: 'message=Terminal+busy' });
    expect(busy.json.SaleToPOIResponse.MessageHeader.ServiceID).toBe(second.SaleToPOIRequest.MessageHeader.ServiceID);

    expect((await send('async', first, HEADERS, poiid)).text).toBe('ok');
    expect(standIn.requests.at(-1)!.repeated).toBe(true);
    expect(standIn.device(poiid).transactions.map((t) => t.state)).toEqual(['WAITING', 'BUSY']);
    standIn.customer(poiid, 'pay');
    // Repeated once decided: the same answer, no new transaction.
    const again = await send('sync', first, HEADERS, poiid);
    expect(paymentResponse(again.json).POIData).toEqual(paymentResponse(standIn.device(poiid).transactions[0].response).POIData);
    expect(standIn.device(poiid).transactions).toHaveLength(2);
    expect(standIn.invalid).toEqual([]);
  });
});

describe('status, abort, reversal', () => {
  const status = (of: any, poiid = POIID) =>
    message('paymentTransactionStatus/paymentTransactionStatusRequest.json', (m) => (m.TransactionStatusRequest.MessageReference = reference(of)), poiid);

  test('TransactionStatusRequest: InProgress while waiting, the payment answer once decided, NotFound otherwise', async () => {
    const poiid = 'V400m-status001';
    const pay = payment(7.5, poiid);
    await send('async', pay, HEADERS, poiid);
    const waiting = (await send('sync', status(pay, poiid), HEADERS, poiid)).json.SaleToPOIResponse;
    expect(waiting.TransactionStatusResponse.Response).toMatchObject({ Result: 'Failure', ErrorCondition: 'InProgress' });
    expect(waiting.MessageHeader.MessageCategory).toBe('TransactionStatus');

    standIn.customer(poiid, 'pay');
    const done = (await send('sync', status(pay, poiid), HEADERS, poiid)).json.SaleToPOIResponse.TransactionStatusResponse;
    expect(done.Response).toEqual({ Result: 'Success' });
    expect(done.MessageReference).toEqual(reference(pay));
    const tx = standIn.device(poiid).transactions[0];
    expect(done.RepeatedMessageResponse).toEqual({
      MessageHeader: tx.response.SaleToPOIResponse.MessageHeader,
      RepeatedResponseMessageBody: { PaymentResponse: paymentResponse(tx.response) },
    });

    const unknown = status(payment(1, poiid), poiid);
    expect((await send('sync', unknown, HEADERS, poiid)).json.SaleToPOIResponse.TransactionStatusResponse.Response.ErrorCondition).toBe('NotFound');
    expect(standIn.invalid).toEqual([]);
  });

  test('AbortRequest withdraws a waiting payment (abortPayment fixture); the held /sync answer is the same', async () => {
    const pay = payment(9);
    const { answer } = await pending(pay);
    const abort = message('abortPayment/abortPaymentRequest.json', (m) => (m.AbortRequest.MessageReference = reference(pay)));
    const aborted = (await send('sync', abort)).json;
    const fixture = adyenFile('fixtures/terminal-api/abortPayment/abortPaymentResponse.json').SaleToPOIResponse;
    expect(paymentResponse(aborted).Response).toEqual({ ...fixture.PaymentResponse.Response, AdditionalResponse: 'message=104%20Merchant%20cancelled' });
    expect(aborted.SaleToPOIResponse.MessageHeader.ServiceID).toBe(pay.SaleToPOIRequest.MessageHeader.ServiceID);
    expect((await answer).json).toEqual(aborted);
    expect(standIn.device(POIID).current).toBeNull();
    // Too late once approved: the abort's answer is the approval.
    const paid = payment(9);
    const held = await pending(paid);
    standIn.customer(POIID, 'pay');
    await held.answer;
    const late = message('abortPayment/abortPaymentRequest.json', (m) => (m.AbortRequest.MessageReference = reference(paid)));
    expect(paymentResponse((await send('sync', late)).json).Response.Result).toBe('Success');
    expect(standIn.invalid).toEqual([]);
  });

  test('ReversalRequest: the whole amount is a void, ReversedAmount a referenced refund; repeats change nothing', async () => {
    const poiid = 'V400m-reversal1';
    standIn.autoCustomer(poiid, 'pay');
    const pay = payment(30, poiid);
    const paid = (await send('sync', pay, HEADERS, poiid)).json;
    standIn.autoCustomer(poiid, null);
    const original = paymentResponse(paid).POIData.POITransactionID;
    const reversal = (amount?: number) =>
      message(
        'reversal/reversalRequest.json',
        (m) => {
          m.ReversalRequest.OriginalPOITransaction.POITransactionID = original;
          delete m.ReversalRequest.SaleData; // optional in the schema
          if (amount !== undefined) {
            m.ReversalRequest.ReversedAmount = amount;
            m.ReversalRequest.SaleData = {
              SaleTransactionID: { TransactionID: `REFUND-${amount}`, TimeStamp: new Date().toISOString() },
              SaleToAcquirerData: 'currency=EUR',
            };
          }
        },
        poiid,
      );
    const refund = reversal(10);
    const refunded = (await send('sync', refund, HEADERS, poiid)).json.SaleToPOIResponse;
    expect(refunded.ReversalResponse.Response.Result).toBe('Success');
    expect(refunded.ReversalResponse.ReversedAmount).toBe(10);
    expect(refunded.MessageHeader).toMatchObject({ MessageCategory: 'Reversal', ServiceID: refund.SaleToPOIRequest.MessageHeader.ServiceID, POIID: poiid });
    expect((await send('sync', refund, HEADERS, poiid)).json.SaleToPOIResponse).toEqual(refunded);
    expect((await send('sync', reversal(25), HEADERS, poiid)).json.SaleToPOIResponse.ReversalResponse.Response).toMatchObject({
      Result: 'Failure',
      ErrorCondition: 'NotAllowed',
    });
    const voided = (await send('sync', reversal(), HEADERS, poiid)).json.SaleToPOIResponse.ReversalResponse;
    expect(voided).toMatchObject({ Response: { Result: 'Success' }, ReversedAmount: 20 });
    expect(standIn.device(poiid).reversals.map((r) => [r.kind, r.amount])).toEqual([
      ['refund', 10],
      ['void', 20],
    ]);
    expect(standIn.invalid).toEqual([]);
  });

  test('a referenced refund (ReversedAmount) without its currency in SaleToAcquirerData, or in another currency, is refused and refunds nothing', async () => {
    const poiid = 'V400m-reversal2';
    standIn.autoCustomer(poiid, 'pay');
    const paid = (await send('sync', payment(30, poiid), HEADERS, poiid)).json;
    standIn.autoCustomer(poiid, null);
    const original = paymentResponse(paid).POIData.POITransactionID;
    const refund = (saleToAcquirerData: string | undefined) =>
      message(
        'reversal/reversalRequest.json',
        (m) => {
          m.ReversalRequest.OriginalPOITransaction.POITransactionID = original;
          m.ReversalRequest.ReversedAmount = 5;
          if (saleToAcquirerData === undefined) delete m.ReversalRequest.SaleData.SaleToAcquirerData;
          else m.ReversalRequest.SaleData.SaleToAcquirerData = saleToAcquirerData;
        },
        poiid,
      );
    const result = async (data: string | undefined) => (await send('sync', refund(data), HEADERS, poiid)).json.SaleToPOIResponse.ReversalResponse.Response;
    expect(await result(undefined)).toMatchObject({
      Result: 'Failure',
      ErrorCondition: 'MessageFormat',
      AdditionalResponse: expect.stringContaining('currency'),
    });
    expect(await result('tenderOption=ReceiptHandler')).toMatchObject({ Result: 'Failure', ErrorCondition: 'MessageFormat' });
    expect(await result('currency=USD')).toMatchObject({ Result: 'Failure', ErrorCondition: 'NotAllowed', AdditionalResponse: expect.stringContaining('USD') });
    expect(standIn.device(poiid).reversals).toEqual([]);
    expect(await result('tenderOption=ReceiptHandler&currency=EUR')).toMatchObject({ Result: 'Success' });
    expect(standIn.device(poiid).reversals.map((r) => [r.kind, r.amount])).toEqual([['refund', 5]]);
    expect(standIn.invalid).toEqual([]);
  });
});

describe('the network and the device', () => {
  test('a lost answer: the payment is on the device, the caller gets no answer, a status read finds it', async () => {
    const poiid = 'V400m-lost00001';
    standIn.loseNextAnswer(poiid);
    const pay = payment(4, poiid);
    await expect(send('async', pay, HEADERS, poiid)).rejects.toThrow();
    expect(standIn.requests.at(-1)).toMatchObject({ outcome: 'lost', answer: 'ok' });
    expect(standIn.device(poiid).current?.serviceId).toBe(pay.SaleToPOIRequest.MessageHeader.ServiceID);
    const status = message(
      'paymentTransactionStatus/paymentTransactionStatusRequest.json',
      (m) => (m.TransactionStatusRequest.MessageReference = reference(pay)),
      poiid,
    );
    expect((await send('sync', status, HEADERS, poiid)).json.SaleToPOIResponse.TransactionStatusResponse.Response.ErrorCondition).toBe('InProgress');
  });

  test('unreachable: no answer and nothing processed, until reachable again', async () => {
    const poiid = 'V400m-unreach01';
    standIn.unreachable(poiid, true);
    await expect(send('async', payment(4, poiid), HEADERS, poiid)).rejects.toThrow();
    expect(standIn.requests.at(-1)!.outcome).toBe('dropped');
    expect(standIn.device(poiid).transactions).toEqual([]);
    standIn.unreachable(poiid, false);
    expect((await send('async', payment(4, poiid), HEADERS, poiid)).text).toBe('ok');
  });

  test('device status as status-device.json; an offline device gets the cloud error fixtures', async () => {
    const poiid = 'V400m-offline01';
    const get = async () =>
      (await (await fetch(`${standIn.url}/v1/merchants/${MERCHANT}/devices/${poiid}/status`, { headers: { 'x-api-key': 'k' } })).json()) as object;
    const fixture = adyenFile('fixtures/clouddevice/status-device.json');
    expect(Object.keys(await get())).toEqual(Object.keys(fixture));
    expect(await get()).toEqual({ deviceId: poiid, status: 'ONLINE' });
    standIn.deviceOffline(poiid, true);
    expect(await get()).toEqual({ deviceId: poiid, status: 'OFFLINE' });
    const sync = (await send('sync', payment(3, poiid), HEADERS, poiid)).json;
    expect(paymentResponse(sync).Response).toEqual(paymentResponse(adyenFile('fixtures/clouddevice/payment-sync-error.json')).Response);
    const async = (await send('async', payment(3, poiid), HEADERS, poiid)).json;
    expect(async.SaleToPOIRequest.EventNotification).toMatchObject({
      EventToNotify: 'Reject',
      EventDetails: 'message=Did+not+receive+a+response+from+the+POI.',
    });
    expect(standIn.device(poiid).transactions).toEqual([]);
    standIn.deviceOffline(poiid, false);
    expect(standIn.invalid).toEqual([]);
  });
});

describe('notifications', () => {
  test("an async payment's outcome: the event notification and a standard one whose HMAC the library's validator accepts", async () => {
    const poiid = 'V400m-notify001';
    const pay = payment(15.99, poiid);
    await send('async', pay, HEADERS, poiid);
    standIn.customer(poiid, 'pay', { cardBrand: 'visa', last4: '1111' });
    await standIn.notificationsSettled();
    const event = received.find((n) => n.SaleToPOIResponse);
    const tx = standIn.device(poiid).transactions[0];
    expect(event).toEqual(tx.response);
    const standard = received.find((n) => n.notificationItems);
    const item = standard.notificationItems[0].NotificationRequestItem;
    expect(item).toMatchObject({
      eventCode: 'AUTHORISATION',
      success: 'true',
      pspReference: tx.pspReference,
      merchantAccountCode: MERCHANT,
      merchantReference: tx.saleTransactionId.TransactionID,
      amount: { currency: 'EUR', value: 1599 },
    });
    expect(standard.live).toBe('false');
    expect(new hmacValidator().validateHMAC(item, standIn.hmacKey)).toBe(true);
    expect(standIn.notifications.filter((n) => n.kind === 'standard').at(-1)).toMatchObject({ status: 200, answer: '[accepted]', forged: false });
  });

  test('a forged notification does not verify; a replay is the same notification again', async () => {
    standIn.forgeNextNotification();
    const tx = standIn.offlinePayment('V400m-notify002', { amount: 2, currency: 'EUR' });
    standIn.replayNotification();
    await standIn.notificationsSettled();
    const [forged, replay] = received.map((n) => n.notificationItems[0].NotificationRequestItem);
    expect(forged.pspReference).toBe(tx.pspReference);
    expect(new hmacValidator().validateHMAC(forged, standIn.hmacKey)).toBe(false);
    expect(replay).toEqual(forged);
    expect(standIn.notifications.slice(-2).map((n) => [n.forged, n.replay])).toEqual([
      [true, false],
      [true, true],
    ]);
  });

  test('reversals are notified as CANCEL_OR_REFUND (void) and REFUND', async () => {
    const poiid = 'V400m-notify003';
    standIn.autoCustomer(poiid, 'pay');
    const paid = (await send('sync', payment(8, poiid), HEADERS, poiid)).json;
    const original = paymentResponse(paid).POIData.POITransactionID;
    const reversal = message('reversal/reversalRequest.json', (m) => (m.ReversalRequest.OriginalPOITransaction.POITransactionID = original), poiid);
    await send('sync', reversal, HEADERS, poiid);
    await standIn.notificationsSettled();
    const items = received.filter((n) => n.notificationItems).map((n) => n.notificationItems[0].NotificationRequestItem);
    expect(items.map((i) => i.eventCode)).toEqual(['AUTHORISATION', 'CANCEL_OR_REFUND']);
    expect(items[1]).toMatchObject({ originalReference: items[0].pspReference, amount: { value: 800, currency: 'EUR' } });
    expect(items.every((i) => new hmacValidator().validateHMAC(i, standIn.hmacKey))).toBe(true);
    expect(standIn.invalid).toEqual([]);
  });
});

describe("through @adyen/api-library's CloudDeviceApi", () => {
  /** The library's client speaks https only; this one sends what it would, over loopback http. */
  const loopback = {
    request: async (endpoint: string, json: string | Buffer, config: { apiKey?: string }, _required: boolean, options: { method?: string } = {}) => {
      const url = endpoint.replace('https://device-api-test.adyen.com', standIn.url);
      const res = await fetch(url, {
        method: options.method ?? 'POST',
        headers: { 'X-API-Key': config.apiKey!, 'Content-Type': 'application/json' },
        body: options.method === 'GET' ? undefined : json.toString(),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`HTTP ${res.status}: ${text}`);
      return text;
    },
  };

  test('sync, async and status parse as the library expects, and validate', async () => {
    const poiid = 'V400m-library01';
    const client = new Client({ apiKey: 'library-key', environment: EnvironmentEnum.TEST }, loopback as never);
    const api = new CloudDeviceAPI(client).CloudDeviceApi;
    standIn.autoCustomer(poiid, 'pay');
    const sync = await api.sync(MERCHANT, poiid, payment(11, poiid) as never);
    expect(sync.SaleToPOIResponse?.PaymentResponse?.Response.Result).toBe('Success');
    standIn.autoCustomer(poiid, null);
    const async = await api.async(MERCHANT, poiid, payment(12, poiid) as never);
    expect(async.Result).toBe('ok');
    expect(await api.getDeviceStatus(MERCHANT, poiid)).toEqual({ deviceId: poiid, status: 'ONLINE' });
    standIn.deviceOffline(poiid, true);
    const rejected = await api.async(MERCHANT, poiid, payment(13, poiid) as never);
    expect(rejected.SaleToPOIRequest?.EventNotification?.EventToNotify).toBe('Reject');
    standIn.deviceOffline(poiid, false);
    expect(standIn.requests.filter((r) => r.deviceId === poiid).map((r) => [r.path, r.apiKey, r.valid])).toEqual([
      [`/v1/merchants/${MERCHANT}/devices/${poiid}/sync`, 'library-key', true],
      [`/v1/merchants/${MERCHANT}/devices/${poiid}/async`, 'library-key', true],
      [`/v1/merchants/${MERCHANT}/devices/${poiid}/status`, 'library-key', true],
      [`/v1/merchants/${MERCHANT}/devices/${poiid}/async`, 'library-key', true],
    ]);
    expect(standIn.invalid).toEqual([]);
  });
});

describe('Checkout modifications of a pre-authorisation (capture, cancel)', () => {
  const CHECKOUT_HEADERS = (idempotencyKey?: string) => ({ ...HEADERS, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) });
  const modify = async (psp: string, what: string, body: unknown, idempotencyKey?: string, prefix = '/v72'): Promise<{ status: number; json: any }> => {
    const res = await fetch(`${standIn.url}${prefix}/payments/${psp}/${what}`, {
      method: 'POST',
      headers: CHECKOUT_HEADERS(idempotencyKey),
      body: JSON.stringify(body),
    });
    return { status: res.status, json: await res.json() };
  };

  /** A payment approved at the terminal; a pre-authorisation when asked (SaleToAcquirerData as the library encodes it). */
  async function approved(poiid: string, amount: number, preAuth = true) {
    standIn.autoCustomer(poiid, 'pay');
    const pay = payment(amount, poiid);
    if (preAuth)
      pay.SaleToPOIRequest.PaymentRequest.SaleData.SaleToAcquirerData = Buffer.from(JSON.stringify({ authorisationType: 'PreAuth' })).toString('base64');
    await send('sync', pay, HEADERS, poiid);
    standIn.autoCustomer(poiid, null);
    return standIn.device(poiid).transactions.at(-1)!;
  }

  test('a capture is received (201) for what is asked, recorded on the transaction and notified as CAPTURE; the same Idempotency-Key answers the same', async () => {
    const tx = await approved('V400m-capture01', 20);
    expect(tx.preAuth).toBe(true);
    const body = { merchantAccount: MERCHANT, amount: { value: 1525, currency: 'EUR' }, reference: 'CAPTURE-1' };
    const first = await modify(tx.pspReference, 'captures', body, 'CAPTURE-1');
    expect(first).toEqual({
      status: 201,
      json: {
        merchantAccount: MERCHANT,
        paymentPspReference: tx.pspReference,
        pspReference: expect.stringMatching(/^[A-Z0-9]{16}$/),
        reference: 'CAPTURE-1',
        status: 'received',
        amount: { value: 1525, currency: 'EUR' },
      },
    });
    expect(await modify(tx.pspReference, 'captures', body, 'CAPTURE-1')).toEqual(first);
    expect(tx.captured).toBe(15.25);
    expect(tx.modifications).toEqual([expect.objectContaining({ kind: 'capture', idempotencyKey: 'CAPTURE-1', amount: { value: 1525, currency: 'EUR' } })]);
    expect(standIn.requests.at(-1)).toMatchObject({
      operation: 'captures',
      paymentPspReference: tx.pspReference,
      idempotencyKey: 'CAPTURE-1',
      repeated: true,
      valid: true,
    });
    await standIn.notificationsSettled();
    const capture = received.map((n) => n.notificationItems?.[0]?.NotificationRequestItem).find((i) => i?.eventCode === 'CAPTURE');
    expect(capture).toMatchObject({ originalReference: tx.pspReference, pspReference: first.json.pspReference, amount: { value: 1525, currency: 'EUR' } });
    // A second capture under another key, or a cancel after it: 422 in Adyen's error shape.
    const again = await modify(tx.pspReference, 'captures', { ...body, reference: 'CAPTURE-2' }, 'CAPTURE-2');
    expect(again).toEqual({
      status: 422,
      json: { status: 422, errorCode: '907', message: expect.stringContaining('already captured'), errorType: 'validation' },
    });
    expect((await modify(tx.pspReference, 'cancels', { merchantAccount: MERCHANT }, 'RELEASE-1')).status).toBe(422);
    expect(standIn.invalid).toEqual([]);
  });

  test('refused with 422: an unknown pspReference, a one-step payment, a cancelled one, more than authorised; another merchant account 403', async () => {
    const refusedAs = (r: { status: number; json: any }, errorCode: string) =>
      expect(r).toEqual({ status: 422, json: expect.objectContaining({ status: 422, errorCode, errorType: 'validation' }) });
    const capture = (value: number, merchantAccount = MERCHANT) => ({ merchantAccount, amount: { value, currency: 'EUR' } });
    refusedAs(await modify('NOSUCHPSP0000000', 'captures', capture(100)), '167');
    const oneStep = await approved('V400m-capture02', 5, false);
    refusedAs(await modify(oneStep.pspReference, 'captures', capture(100)), '907');
    const preAuth = await approved('V400m-capture02', 5);
    refusedAs(await modify(preAuth.pspReference, 'captures', capture(501)), '137');
    expect((await modify(preAuth.pspReference, 'captures', capture(100, 'SomeoneElse'))).status).toBe(403);
    const cancelled = await modify(preAuth.pspReference, 'cancels', { merchantAccount: MERCHANT, reference: 'RELEASE-2' }, 'RELEASE-2');
    expect(cancelled).toEqual({
      status: 201,
      json: expect.objectContaining({ status: 'received', paymentPspReference: preAuth.pspReference, reference: 'RELEASE-2' }),
    });
    expect(preAuth.cancelled).toBe(true);
    refusedAs(await modify(preAuth.pspReference, 'captures', capture(100)), '907');
    expect(standIn.invalid).toEqual([]);
  });

  test('every request is validated against CheckoutService-v72.json: a misspelt field, a missing amount or key fail', async () => {
    const tx = await approved('V400m-capture03', 8);
    const bad = await modify(tx.pspReference, 'captures', { merchantAccount: MERCHANT, amount: { value: 100, currency: 'EUR' }, refrence: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({
      status: 400,
      errorCode: '702',
      errorType: 'validation',
      message: expect.stringContaining('additional properties (refrence)'),
    });
    expect((await modify(tx.pspReference, 'captures', { merchantAccount: MERCHANT })).json.message).toContain("must have required property 'amount'");
    expect((await modify(tx.pspReference, 'captures', { merchantAccount: MERCHANT, amount: { value: 1.5, currency: 'EUR' } })).status).toBe(400);
    const keyless = await fetch(`${standIn.url}/v72/payments/${tx.pspReference}/cancels`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ merchantAccount: MERCHANT }),
    });
    expect(keyless.status).toBe(401);
    expect(await modify(tx.pspReference, 'refunds', { merchantAccount: MERCHANT })).toMatchObject({ status: 400 });
    expect(standIn.invalid.map((r) => r.errors.join('; '))).toEqual([
      expect.stringContaining('refrence'),
      expect.stringContaining('amount'),
      expect.stringContaining('/amount/value'),
      expect.stringContaining('X-API-Key'),
      expect.stringContaining('no such modification path'),
    ]);
    standIn.invalid.length = 0;
    // Nothing was modified by the invalid ones; a LIVE host's /checkout prefix is Adyen's path too.
    expect(tx.modifications).toEqual([]);
    expect((await modify(tx.pspReference, 'cancels', { merchantAccount: MERCHANT }, undefined, '/checkout/v72')).status).toBe(201);
  });

  test('the next modification unreachable: dropped, nothing done; lost, done and the answer gone, a retry with the key answers it', async () => {
    const tx = await approved('V400m-capture04', 10);
    const body = { merchantAccount: MERCHANT, amount: { value: 1000, currency: 'EUR' }, reference: 'CAPTURE-4' };
    standIn.loseNextModification('dropped');
    await expect(modify(tx.pspReference, 'captures', body, 'CAPTURE-4')).rejects.toThrow();
    expect(tx.modifications).toEqual([]);
    standIn.loseNextModification('lost');
    await expect(modify(tx.pspReference, 'captures', body, 'CAPTURE-4')).rejects.toThrow();
    expect(tx.modifications).toHaveLength(1);
    const retried = await modify(tx.pspReference, 'captures', body, 'CAPTURE-4');
    expect(retried.status).toBe(201);
    expect(retried.json.pspReference).toBe(tx.modifications[0].pspReference);
    expect(standIn.modifications().filter((m) => m.tx === tx)).toHaveLength(1);
    expect(standIn.requests.filter((r) => r.paymentPspReference === tx.pspReference).map((r) => r.outcome)).toEqual(['dropped', 'lost', 'answered']);
  });

  test('a referenced refund (ReversalRequest) of a pre-authorisation: refused until captured, then up to what was captured', async () => {
    const poiid = 'V400m-capture05';
    const tx = await approved(poiid, 40);
    const refund = (amount: number) =>
      message(
        'reversal/reversalRequest.json',
        (m) => {
          m.ReversalRequest.OriginalPOITransaction.POITransactionID = tx.poiTransactionId;
          m.ReversalRequest.SaleData.SaleToAcquirerData = 'currency=EUR';
          m.ReversalRequest.ReversedAmount = amount;
        },
        poiid,
      );
    const result = async (amount: number) => (await send('sync', refund(amount), HEADERS, poiid)).json.SaleToPOIResponse.ReversalResponse.Response;
    expect(await result(5)).toMatchObject({ Result: 'Failure', ErrorCondition: 'NotAllowed', AdditionalResponse: expect.stringContaining('not%20captured') });
    await modify(tx.pspReference, 'captures', { merchantAccount: MERCHANT, amount: { value: 3000, currency: 'EUR' } }, 'CAPTURE-5');
    expect(await result(30.01)).toMatchObject({ Result: 'Failure', ErrorCondition: 'NotAllowed' });
    expect(await result(30)).toMatchObject({ Result: 'Success' });
    expect(standIn.invalid).toEqual([]);
  });
});

describe('report downloads (the daily Payment accounting report)', () => {
  const download = (path: string, init: RequestInit = { headers: { 'x-api-key': 'test-api-key' } }) => fetch(`${standIn.url}${path}`, init);
  const fileOf = (date: string) => `/reports/download/MerchantAccount/${MERCHANT}/payments_accounting_report_${date.replace(/-/g, '_')}.csv`;

  test("the day's lines of the merchant account: a settled payment with the fee rule, its terminal, the booking time in CET", async () => {
    const poiid = 'V400m-report001';
    const tx = standIn.offlinePayment(poiid, { amount: 20, currency: 'EUR', merchantAccount: MERCHANT, cardBrand: 'visa' });
    const booking = bookingOf(tx.decidedAt!);
    const res = await download(fileOf(booking.date));
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'text/csv']);
    const rows: Record<string, string>[] = parse(await res.text(), { columns: true });
    const mine = rows.filter((r) => r['Psp Reference'] === tx.pspReference);
    expect(mine.map((r) => r['Record Type'])).toEqual(['Authorised', 'Settled']);
    expect(mine[1]).toMatchObject({
      'Merchant Account': MERCHANT,
      'Merchant Reference': tx.saleTransactionId.TransactionID,
      'Payment Method': 'visa',
      'Booking Date': booking.bookingDate,
      TimeZone: booking.timeZone,
      'Main Currency': 'EUR',
      'Main Amount': '20.00',
      'Interchange (SC)': '0.16',
      'Scheme Fees (SC)': '0.04',
      'Markup (SC)': '0.06',
      'Commission (SC)': '0.10',
      'Payable (SC)': '19.64',
      'Unique Terminal Id': poiid,
    });
    expect(feesOf(12.34, 'EUR')).toMatchObject({ interchange: '0.10', schemeFees: '0.02', markup: '0.04', commission: '0.10', total: '0.26' });
    expect(feesOf(1500, 'JPY')).toMatchObject({ interchange: '12', schemeFees: '3', markup: '5', commission: '10', total: '30', payable: '1470' });
    // Another merchant account's file of the same day has none of it.
    const other = await download(fileOf(booking.date).replace(MERCHANT, 'OtherMerchant'));
    expect(await other.text()).not.toContain(tx.pspReference);
    expect(standIn.requests.at(-1)).toMatchObject({ operation: 'reportDownload', merchantAccount: 'OtherMerchant', status: 200 });
    expect(standIn.invalid).toEqual([]);
  });

  test('401 without an API key; 404 for an unknown file and a day not yet reported', async () => {
    const today = bookingOf(new Date().toISOString()).date;
    expect((await download(fileOf(today), {})).status).toBe(401);
    expect(standIn.invalid.map((r) => r.errors)).toEqual([[expect.stringMatching(/X-API-Key is missing/)]]);
    standIn.invalid.length = 0;
    expect((await download(`/reports/download/MerchantAccount/${MERCHANT}/settlement_detail_report_batch_4.csv`)).status).toBe(404);
    const tomorrow = new Date(Date.parse(`${today}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect((await download(fileOf(tomorrow))).status).toBe(404);
    expect(standIn.invalid).toEqual([]);
  });

  test.each([
    ['a file name that is not a report', `/reports/download/MerchantAccount/${MERCHANT}/../../etc/passwd`],
    ['a date that is not a date', `/reports/download/MerchantAccount/${MERCHANT}/payments_accounting_report_2026_02_30.csv`],
    ['no merchant account', '/reports/download/MerchantAccount/payments_accounting_report_2026_02_03.csv'],
    ['a bad merchant account', `/reports/download/MerchantAccount/Bad%20MID/payments_accounting_report_2026_02_03.csv`],
    ['another path', `/reports/download/Company/${MERCHANT}/payments_accounting_report_2026_02_03.csv`],
  ])('a malformed download (%s) is refused and kept in invalid', async (_what, path) => {
    expect((await download(path)).status).toBe(400);
    expect(standIn.invalid).toHaveLength(1);
  });

  test('a report download is a GET without a body; unreachable reports drop the connection', async () => {
    const path = fileOf('2026-02-03');
    expect((await download(path, { method: 'POST', headers: { 'x-api-key': 'k' }, body: 'x' })).status).toBe(400);
    expect(standIn.invalid).toHaveLength(1);
    standIn.invalid.length = 0;
    standIn.reportsUnreachable(true);
    await expect(download(path)).rejects.toThrow();
    expect(standIn.requests.at(-1)).toMatchObject({ operation: 'reportDownload', outcome: 'dropped' });
    standIn.reportsUnreachable(false);
    expect((await download(path)).status).toBe(200);
  });
});
