import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The URL rules (docs/webhooks.md, "URL rules"): https:// only, and never a loopback, private (RFC 1918, CGNAT,
 * unique-local), link-local or otherwise special address, checked on the literal host and on
 * every address its name resolves to. WEBHOOK_ALLOW_INSECURE lifts both rules (local development
 * and tests). The range classification is ipaddr.js's: only its 'unicast' (public) range passes.
 */
export class WebhookUrlRefused extends Error {
  constructor(
    message: string,
    /** False when the URL itself is wrong (scheme, shape): retrying cannot help. */
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'WebhookUrlRefused';
  }
}

const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback',
  private: 'a private',
  carrierGradeNat: 'a private (carrier-grade NAT)',
  uniqueLocal: 'a private (unique-local)',
  linkLocal: 'a link-local',
  unspecified: 'an unspecified',
  multicast: 'a multicast',
  broadcast: 'a broadcast',
};

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

/** Why an IP address may not receive webhooks, or undefined when it is a public unicast address. */
export function refusedAddressReason(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  // process() turns IPv4-mapped IPv6 (::ffff:10.0.0.1) into the IPv4 address it carries.
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  // ipaddr.js calls every IPv6 address outside its named ranges 'unicast', including the
  // deprecated IPv4-compatible ::a.b.c.d (::7f00:1 is 127.0.0.1): only global unicast 2000::/3 passes.
  if (parsed.kind() === 'ipv6' && range === 'unicast' && !parsed.match(GLOBAL_UNICAST_V6)) return `${address} is a non-global IPv6 address`;
  if (range === 'unicast') return undefined;
  return `${address} is ${RANGE_WORDS[range] ?? `a reserved (${range})`} address`;
}

/** Parses the URL and applies the rules that need no name resolution. */
export function checkUrlShape(raw: string, allowInsecure: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlRefused('must be an absolute URL', false);
  }
  const schemes = allowInsecure ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) throw new WebhookUrlRefused(allowInsecure ? 'must be an http:// or https:// URL' : 'must be an https:// URL', false);
  if (url.username || url.password) throw new WebhookUrlRefused('must not carry credentials', false);
  if (!url.hostname) throw new WebhookUrlRefused('must name a host', false);
  return url;
}

const LOOKUP_TIMEOUT_MS = 5000;

/** A name service: every address a host name resolves to. */
export type ResolveHost = (hostname: string) => Promise<string[]>;

/** Every address a host name resolves to (the system resolver, as fetch uses it). */
export async function resolveHost(hostname: string): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('name resolution timed out')), LOOKUP_TIMEOUT_MS);
  });
  try {
    const found = await Promise.race([dns.promises.lookup(hostname, { all: true, verbatim: true }), timeout]);
    return found.map((a) => a.address);
  } finally {
    clearTimeout(timer);
  }
}

/** The host of a URL as an address or name: WHATWG keeps IPv6 literals in brackets. */
function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Applies every rule: shape, then the literal address or each resolved address. Returns the
 * parsed URL. Throws WebhookUrlRefused with a reason fit for a 400 message or an attempt's error.
 */
export async function checkWebhookUrl(raw: string, allowInsecure: boolean, resolve: ResolveHost = resolveHost): Promise<URL> {
  const url = checkUrlShape(raw, allowInsecure);
  if (allowInsecure) return url;
  const host = bareHost(url);
  if (ipaddr.isValid(host)) {
    const reason = refusedAddressReason(host);
    if (reason) throw new WebhookUrlRefused(`must not point to ${reason.replace(/^\S+ is /, '')} (${host})`, false);
    return url;
  }
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch (err) {
    throw new WebhookUrlRefused(`host ${host} could not be resolved (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, true);
  }
  if (addresses.length === 0) throw new WebhookUrlRefused(`host ${host} could not be resolved`, true);
  for (const address of addresses) {
    const reason = refusedAddressReason(address);
    if (reason) throw new WebhookUrlRefused(`host ${host} resolves to ${reason.replace(/^\S+ is /, '')} (${address})`, true);
  }
  return url;
}

/**
 * The same rule where the connection is made: a `lookup` for net/tls connections that resolves the
 * name once and refuses the connection when any address it resolves to is not public, so the
 * address connected to is an address that was checked. A name that changes its answer between
 * the URL check and the send (DNS rebinding) can no longer lead a delivery to a private address.
 */
export function guardedLookup(resolve: ResolveHost = resolveHost): LookupFunction {
  return (hostname, options, callback) => {
    const answer = callback as (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;
    resolve(hostname).then(
      (addresses) => {
        const refused = addresses.map(refusedAddressReason).find((reason) => reason !== undefined);
        if (refused || addresses.length === 0) {
          const reason = refused ? `resolves to ${refused.replace(/^\S+ is /, '')} (${refused.split(' ')[0]})` : 'could not be resolved';
          return answer(Object.assign(new Error(`refused at connect: host ${hostname} ${reason}`), { code: 'EWEBHOOKADDRESS' }), '');
        }
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const found = addresses.map((address) => ({ address, family: net.isIP(address) })).filter((a) => !family || a.family === family);
        if (found.length === 0) return answer(Object.assign(new Error(`host ${hostname} has no IPv${family} address`), { code: 'ENOTFOUND' }), '');
        if (options.all) return answer(null, found);
        answer(null, found[0]!.address, found[0]!.family);
      },
      (err: NodeJS.ErrnoException) => answer(err, ''),
    );
  };
}
