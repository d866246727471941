import { type AdyenStack, adyenTill, startAdyenStack, stopAdyenStack } from '../acquirerAccounts/adyenStack';
import { storeWithTerminal } from '../payments/helpers';
import { CONFORMANCE_ENV, conformanceSuite } from './conformance';

/**
 * The shared acquirer behaviour (./conformance.ts) for a live-mode business's adyen account
 * (`environment` LIVE) against the Adyen stand-in: every request the adapter sends validated
 * against Adyen's schemas.
 */
let s: AdyenStack;

afterEach(() => expect(s.standIn.invalid).toEqual([]));

conformanceSuite(
  async () => {
    s = await startAdyenStack(CONFORMANCE_ENV, 'live');
    return {
      stack: s.stack,
      finance: s.finance,
      // A close reports bookings up to the start of its own second (docs/acquirers.md, "Adyen: settlement").
      reportDelayMs: 1100,
      till: async ({ twoStep = false } = {}) => {
        // A store of its own (the account is the business's default route), on a fresh POIID.
        const store = await storeWithTerminal(s.stack, s.shop, { mode: 'live', twoStep });
        return (await adyenTill(s, { till: store, twoStep })).shop;
      },
      customer: async (shop, action) => void s.standIn.customer(shop.deviceId, action),
      unreachable: async (shop, on) => s.standIn.unreachable(shop.deviceId, on),
      moneyAt: async (shop, paymentId) => {
        const device = s.standIn.device(shop.deviceId);
        const mine = device.transactions.filter((t) => t.saleTransactionId.TransactionID === paymentId && t.state === 'APPROVED');
        const psps = new Set(mine.map((t) => t.pspReference));
        return { captures: mine.length, reversed: device.reversals.filter((r) => psps.has(r.originalPsp)).map((r) => r.amount) };
      },
    };
  },
  () => stopAdyenStack(s),
);
