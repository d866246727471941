import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Adyen's own material, read from the repository's copy (test/fixtures/adyen, see its README) so
 * that CI on a fresh clone finds it. Every answer the stand-in gives starts from one of these files.
 */
export const ADYEN_DATA_DIR = path.resolve(__dirname, '../../fixtures/adyen');

const cache = new Map<string, unknown>();

/** A parsed JSON file under test/fixtures/adyen, as a fresh copy the caller may change. */
export function adyenFile<T = any>(relative: string): T {
  if (!cache.has(relative)) cache.set(relative, JSON.parse(readFileSync(path.join(ADYEN_DATA_DIR, relative), 'utf8')));
  return structuredClone(cache.get(relative)) as T;
}

/** The amount's last digits that select a decline in Adyen's mock terminal, and the fixture each answers. */
export const DECLINE_FIXTURES: Record<string, string> = {
  '124': 'fixtures/terminal-api/payment/124_paymentNotEnoughBalanceResponse.json',
  '125': 'fixtures/terminal-api/payment/125_paymentCardBlockedResponse.json',
  '126': 'fixtures/terminal-api/payment/126_paymentCardExpiredResponse.json',
  '127': 'fixtures/terminal-api/payment/127_paymentInvalidAmountResponse.json',
  '128': 'fixtures/terminal-api/payment/128_paymentInvalidCardResponse.json',
  '134': 'fixtures/terminal-api/payment/134_paymentWrongPinResponse.json',
};

export const FIXTURE = {
  paymentResponse: 'fixtures/terminal-api/payment/paymentResponse.json',
  paymentBusy: 'fixtures/terminal-api/paymentBusy/paymentBusyResponse.json',
  transactionStatus: 'fixtures/terminal-api/paymentTransactionStatus/paymentTransactionStatusResponse.json',
  abortPayment: 'fixtures/terminal-api/abortPayment/abortPaymentResponse.json',
  reversal: 'fixtures/terminal-api/reversal/reversalResponse.json',
  syncError: 'fixtures/clouddevice/payment-sync-error.json',
  asyncError: 'fixtures/clouddevice/payment-async-error.json',
  invalidJson: 'fixtures/terminal-api/notification/invalidJsonObjectNotificationResponse.json',
  deviceStatus: 'fixtures/clouddevice/status-device.json',
  connectedDevices: 'fixtures/clouddevice/connected-devices.json',
  authorisation: 'fixtures/notification/authorisationTrue.json',
  terminalApi: 'openapi/TerminalAPI-v1.json',
  cloudDevice: 'openapi/CloudDeviceService-v1.json',
  checkout: 'openapi/CheckoutService-v72.json',
  disputes: 'openapi/DisputeService-v30.json',
} as const;

/**
 * The mock terminal's fixtures hold regular expressions where the text varies (`.+`, `.*`,
 * `.+message=104%20Merchant%20cancelled.+`, and `...`); an answer carries text, so these become
 * the literal part of the pattern, or `fallback` when there is none.
 */
export function literalOf(pattern: string, fallback: string): string {
  const text = pattern.replace(/\.[+*]/g, '').replace(/^\.\.\.$/, '');
  return text || fallback;
}
