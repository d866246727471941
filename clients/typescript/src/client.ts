import { type Client, createClient as createFetchClient, createConfig } from './generated/client';
import { ApiError, toApiError } from './errors';
import { retryingFetch, type RetryPolicy } from './retry';

/** A credential, or a function that reads the current one at each call (a session that changes). */
type Credential = string | (() => string | null | undefined);

export interface ClientSettings {
  /** The service's address, e.g. `https://pay.example.com`; '' for the page's own origin. */
  baseUrl: string;
  /** An API key (`isp_live_...`/`isp_test_...`), sent as X-API-Key to the operations that take one. */
  apiKey?: Credential;
  /** A dashboard session token (POST /api/auth/login), sent as `Authorization: Bearer`. */
  sessionToken?: Credential;
  retry?: RetryPolicy;
  /** The fetch underneath (tests, proxies); the global one by default. */
  fetch?: typeof fetch;
}

const read = (c: Credential | undefined): string | undefined => (typeof c === 'function' ? (c() ?? undefined) : c);

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Every request is sent with `redirect: 'manual'` and a redirect answer is refused with an ApiError:
 * a followed redirect would carry the `X-API-Key` header (fetch drops only `Authorization` on a
 * cross-origin redirect) to wherever the `Location` points (docs/security.md, "Rules added in the
 * security round (issue 37)"). In a browser the answer is opaque (`opaqueredirect`, status 0).
 */
function refusingRedirects(fetchImpl: typeof fetch): typeof fetch {
  return async (input, init) => {
    const request = new Request(new Request(input, init), { redirect: 'manual' });
    const res = await fetchImpl(request);
    if (res.type !== 'opaqueredirect' && !REDIRECTS.has(res.status)) return res;
    res.body?.cancel().catch(() => {});
    const to = res.headers.get('Location');
    throw new ApiError(
      res.status,
      `${request.method} ${new URL(request.url).pathname} was answered with a redirect${to ? ` to ${to}` : ''}; the client follows no redirect, ` +
        'so its credentials never go to another address: set baseUrl to the address that answers',
    );
  };
}
const configured = new WeakSet<Client>();

/**
 * Sets a client's address and credentials once: every generated function called with this client
 * (`createPayment({ client, body })`) sends them, throws ApiError for a non-2xx answer (a redirect
 * included: none is followed), and retries only the operations safe to repeat (src/retry.ts).
 */
export function configureClient(target: Client, settings: ClientSettings): Client {
  target.setConfig({
    baseUrl: settings.baseUrl,
    throwOnError: true,
    // Redirects refused outside the retries: a redirect is no temporary answer to repeat.
    fetch: refusingRedirects(retryingFetch(settings.retry, settings.fetch)),
    // The generated operations name their schemes: X-API-Key (apiKey) and bearer (API key or session).
    auth: (auth) => (auth.type === 'apiKey' ? read(settings.apiKey) : auth.scheme === 'bearer' ? read(settings.sessionToken) : undefined),
  });
  if (!configured.has(target)) {
    configured.add(target);
    target.interceptors.error.use((error, response) => toApiError(error, response));
  }
  return target;
}

/** A new client with its own settings: `createClient({ baseUrl, apiKey })` or `{ baseUrl, sessionToken }`. */
export function createClient(settings: ClientSettings): Client {
  return configureClient(createFetchClient(createConfig()), settings);
}
