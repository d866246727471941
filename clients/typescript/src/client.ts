import { type Client, createClient as createFetchClient, createConfig } from './generated/client';
import { toApiError } from './errors';
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
const configured = new WeakSet<Client>();

/**
 * Sets a client's address and credentials once: every generated function called with this client
 * (`createPayment({ client, body })`) sends them, throws ApiError for a non-2xx answer, and retries
 * only the operations safe to repeat (src/retry.ts).
 */
export function configureClient(target: Client, settings: ClientSettings): Client {
  target.setConfig({
    baseUrl: settings.baseUrl,
    throwOnError: true,
    fetch: retryingFetch(settings.retry, settings.fetch),
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
