import { decide, routedMode, type Routes } from '../../src/acquirerAccounts/decision';

/** The decision (docs/acquirers.md, "Routes and the decision"): the first rule whose every given condition holds, then the default, then the installation. */
const facts = { storeExternalId: 'store_a', currency: 'EUR', paymentMode: 'CARD' as const, amount: '50.00' };

const routes = (rules: Routes['rules'], defaultAccountId: string | null = null): Routes => ({ rules, defaultAccountId });

describe('decide', () => {
  it('no routes: the installation default', () => {
    expect(decide(null, facts)).toEqual({ accountId: null, rule: 'installation' });
    expect(decide(routes([]), facts)).toEqual({ accountId: null, rule: 'installation' });
  });

  it('no rule holds: the default account', () => {
    expect(decide(routes([{ name: 'sek', accountId: 'a1', match: { currencies: ['SEK'] } }], 'd'), facts)).toEqual({ accountId: 'd', rule: 'default' });
  });

  it('the first matching rule wins, in order', () => {
    const r = routes([
      { name: 'qr', accountId: 'a1', match: { paymentModes: ['QR_CODE'] } },
      { name: 'eur', accountId: 'a2', match: { currencies: ['EUR'] } },
      { name: 'any', accountId: 'a3', match: {} },
    ]);
    expect(decide(r, facts)).toEqual({ accountId: 'a2', rule: 'eur' });
    expect(decide(r, { ...facts, paymentMode: 'QR_CODE' })).toEqual({ accountId: 'a1', rule: 'qr' });
    expect(decide(r, { ...facts, currency: 'GBP' })).toEqual({ accountId: 'a3', rule: 'any' });
  });

  it('every given condition must hold', () => {
    const r = routes([{ name: 'both', accountId: 'a1', match: { storeExternalIds: ['store_a'], currencies: ['SEK'] } }], 'd');
    expect(decide(r, facts).rule).toBe('default');
    expect(decide(r, { ...facts, currency: 'SEK' }).rule).toBe('both');
    expect(decide(r, { ...facts, currency: 'SEK', storeExternalId: 'store_b' }).rule).toBe('default');
  });

  it('amount bounds are inclusive and exact', () => {
    const r = routes([{ name: 'mid', accountId: 'a1', match: { minAmount: 10, maxAmount: 50 } }], 'd');
    expect(decide(r, { ...facts, amount: '10' }).rule).toBe('mid');
    expect(decide(r, { ...facts, amount: '50' }).rule).toBe('mid');
    expect(decide(r, { ...facts, amount: '50.0001' }).rule).toBe('default');
    expect(decide(r, { ...facts, amount: '9.9999' }).rule).toBe('default');
    expect(decide(routes([{ name: 'cents', accountId: 'a1', match: { maxAmount: 0.3 } }]), { ...facts, amount: '0.3' }).rule).toBe('cents');
  });
});

describe('routedMode', () => {
  it('the single requested mode, else CARD', () => {
    expect(routedMode(['QR_CODE'])).toBe('QR_CODE');
    expect(routedMode(['CARD', 'QR_CODE'])).toBe('CARD');
    expect(routedMode(undefined)).toBe('CARD');
    expect(routedMode([])).toBe('CARD');
  });
});
