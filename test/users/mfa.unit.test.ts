/** TOTP pieces without the stack: Base32 (RFC 4648 vectors), codes (RFC 6238 vectors), replay refusal. */
import { base32Decode, base32Encode, checkTotp, newTotpSecret, otpauthUrl } from '../../src/users/mfa';
import { totpCode } from './helpers';

describe('Base32', () => {
  it.each([
    ['', ''],
    ['f', 'MY'],
    ['fo', 'MZXQ'],
    ['foo', 'MZXW6'],
    ['foob', 'MZXW6YQ'],
    ['fooba', 'MZXW6YTB'],
    ['foobar', 'MZXW6YTBOI'],
  ])('encodes %j as %s and back (RFC 4648, unpadded)', (text, encoded) => {
    expect(base32Encode(Buffer.from(text))).toBe(encoded);
    expect(Buffer.from(base32Decode(encoded)).toString()).toBe(text);
    expect(Buffer.from(base32Decode(`${encoded.toLowerCase()}====`)).toString()).toBe(text);
  });

  it('refuses characters outside the alphabet', () => {
    expect(() => base32Decode('MZXW1')).toThrow();
  });
});

describe('TOTP', () => {
  // RFC 6238 appendix B, SHA-1, the ASCII secret "12345678901234567890", last six digits.
  const RFC_SECRET = base32Encode(Buffer.from('12345678901234567890'));
  it.each([
    [59, '287082'],
    [1111111109, '081804'],
    [1234567890, '005924'],
  ])('the test oracle matches RFC 6238 at T=%i', (epoch, code) => {
    expect(totpCode(RFC_SECRET, 0, epoch)).toBe(code);
  });

  it('accepts the current code and one step either side, once; refuses others', async () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl(secret, 'anna')).toBe(`otpauth://totp/In-Store%20Payments:anna?secret=${secret}&issuer=In-Store%20Payments`);
    const step = Math.floor(Date.now() / 30_000);
    const codeAt = (s: number) => totpCode(secret, 0, s * 30);
    expect(await checkTotp(secret, codeAt(step), null)).toBe(step);
    expect(await checkTotp(secret, codeAt(step), step)).toBeUndefined(); // replay
    expect(await checkTotp(secret, codeAt(step + 1), step)).toBe(step + 1);
    expect(await checkTotp(secret, codeAt(step - 1), null)).toBe(step - 1);
    expect(await checkTotp(secret, codeAt(step + 3), null)).toBeUndefined();
    expect(await checkTotp(secret, 'abcdef', null)).toBeUndefined();
  });
});
