import { HttpClientException, HttpURLConnectionClient, type Config } from './library';
import type ClientInterface from '@adyen/api-library/lib/src/httpClient/clientInterface';
import type { IRequest } from '@adyen/api-library/lib/src/typings/requestOptions';
import LibraryConstants from '@adyen/api-library/lib/src/constants/libraryConstants';

/**
 * The library's HTTP client, with one change for tests: `ADYEN_API_BASE`.
 *
 * The library has no setting for where the cloud device API is (each service fixes its URL from
 * `environment`: https://device-api-test.adyen.com/v1 or -live), and its own client speaks HTTPS
 * only. So when a base is set, this client (the library's extension point: `new Client(config,
 * httpClient)`) swaps the origin of every URL the library built for the base and sends the same
 * request, same headers, over plain HTTP if the base says so: a stand-in on a loopback port gets
 * exactly Adyen's paths (`/v1/merchants/{merchantAccount}/devices/{deviceId}/sync`, ..., and the
 * Checkout modifications' `/v72/payments/{paymentPspReference}/captures`, from checkout-test.adyen.com,
 * or `/checkout/v72/...` from a LIVE account's prefixed host). Errors
 * are the library's own (HttpClientException with the status and body). Without a base the
 * library's client does everything.
 */
export class AdyenHttpClient implements ClientInterface {
  private readonly library = new HttpURLConnectionClient();

  constructor(private readonly apiBase?: string) {}

  request(endpoint: string, json: string | Buffer, config: Config, isApiKeyRequired: boolean, requestOptions: IRequest.Options = {}): Promise<string> {
    if (!this.apiBase) return this.library.request(endpoint, json, config, isApiKeyRequired, requestOptions);
    return this.rebased(rebase(endpoint, this.apiBase), json, config, requestOptions);
  }

  private async rebased(url: URL, json: string | Buffer, config: Config, options: IRequest.Options): Promise<string> {
    if (options.params) url.search = new URLSearchParams(options.params as Record<string, string>).toString();
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'Accept-Charset': 'utf-8',
      'Cache-Control': 'no-cache',
      'User-Agent': `${LibraryConstants.LIB_NAME}/${LibraryConstants.LIB_VERSION}`,
      'adyen-library-name': LibraryConstants.LIB_NAME,
      'adyen-library-version': LibraryConstants.LIB_VERSION,
      ...((options.headers ?? {}) as Record<string, string>),
    };
    if (config.apiKey) headers['X-API-Key'] = config.apiKey;
    if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
    const method = options.method ?? 'POST';
    let res: globalThis.Response;
    try {
      res = await fetch(url, {
        method,
        headers,
        ...(method === 'GET' ? {} : { body: typeof json === 'string' ? json : new Uint8Array(json) }),
        signal: AbortSignal.timeout(config.connectionTimeoutMillis ?? 30_000),
      });
    } catch (err) {
      // No answer (refused, reset, timed out): as the library's client, an error without a status.
      throw new HttpClientException({ message: `no answer from ${url.origin}: ${(err as Error).message}` });
    }
    const body = await res.text();
    if (res.status < 200 || res.status >= 300) throw failureOf(res, body);
    return body;
  }
}

/** As the library's client reads a refusal: Adyen's error object (`{ status, errorCode, message, errorType }`) kept as `apiError`. */
function failureOf(res: globalThis.Response, body: string): HttpClientException {
  let said: { status?: number; errorCode?: string; message?: string } | undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && 'status' in parsed) said = parsed as typeof said;
  } catch {
    // not JSON: the body is kept as it came
  }
  return new HttpClientException({
    message: `HTTP Exception: ${res.status}. ${res.statusText}${said?.message ? `: ${said.message}` : ''}`,
    statusCode: res.status,
    responseBody: body,
    ...(said ? { errorCode: said.errorCode, apiError: said as HttpClientException['apiError'] } : {}),
  });
}

/** The library's URL with its origin swapped for the base (a path in the base goes in front). */
export function rebase(endpoint: string, apiBase: string): URL {
  const from = new URL(endpoint);
  const base = new URL(apiBase);
  return new URL(base.pathname.replace(/\/$/, '') + from.pathname + from.search, base.origin);
}
