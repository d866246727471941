import { checkWebhookUrl, refusedAddressReason } from '../../src/webhooks/urlPolicy';

/** Issue 15 point 6 (first half): IPv6 spellings of loopback and private addresses are refused. */
it.each(['https://[::7f00:1]/', 'https://[::a00:1]/hook', 'https://[::c0a8:101]/', 'https://[::ffff:127.0.0.1]/', 'https://[2002:7f00:1::]/'])(
  'refuses %s',
  async (url) => {
    await expect(checkWebhookUrl(url, false)).rejects.toThrow(/must not point to/);
  },
);

it('still accepts global unicast IPv6 and public IPv4 literals', async () => {
  await expect(checkWebhookUrl('https://[2001:4860:4860::8888]/hook', false)).resolves.toBeInstanceOf(URL);
  await expect(checkWebhookUrl('https://8.8.8.8/hook', false)).resolves.toBeInstanceOf(URL);
  expect(refusedAddressReason('::7f00:1')).toBe('::7f00:1 is a non-global IPv6 address');
});
