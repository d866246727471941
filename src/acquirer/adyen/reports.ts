import { AcquirerRejectedError, AcquirerUnreachableError } from '../port';
import { reportUrlOf } from './settlement';
import { rebase } from './transport';

/**
 * Downloads an account's report files from Adyen (the library has no call for it): a GET of
 * `/reports/download/MerchantAccount/{merchantAccount}/{fileName}` on the Customer Area host with
 * the API key in `x-api-key`. `ADYEN_API_BASE` swaps the origin as for every Adyen call
 * (./transport.ts `rebase`), so a stand-in gets Adyen's own path.
 */
export interface ReportDownloaderOptions {
  apiKey: string;
  environment: 'TEST' | 'LIVE';
  merchantAccountId: string;
  apiBase?: string;
  timeoutMs?: number;
}

export class ReportDownloader {
  constructor(private readonly options: ReportDownloaderOptions) {}

  /**
   * The file's text; null when Adyen has no such file (404: no report was generated for that
   * day). No answer, a 5xx or 429: unreachable (the close retries). Any other refusal (401, 403:
   * the API credential lacks the report role) is not retried.
   */
  async download(fileName: string): Promise<string | null> {
    const { apiKey, environment, merchantAccountId, apiBase, timeoutMs } = this.options;
    const url = reportUrlOf(environment, merchantAccountId, fileName);
    const target = apiBase ? rebase(url, apiBase) : new URL(url);
    let res: Response;
    try {
      res = await fetch(target, { method: 'GET', headers: { 'x-api-key': apiKey, accept: 'text/csv' }, signal: AbortSignal.timeout(timeoutMs ?? 30_000) });
    } catch (err) {
      throw new AcquirerUnreachableError(this.masked(`adyen did not answer to download ${fileName}: ${(err as Error).message}`));
    }
    const body = await res.text();
    if (res.ok) return body;
    if (res.status === 404) return null;
    const said = `${res.status} ${body.slice(0, 300)}`.replace(/\s+/g, ' ').trim();
    if (res.status >= 500 || res.status === 429) throw new AcquirerUnreachableError(this.masked(`adyen did not answer to download ${fileName}: ${said}`));
    throw new AcquirerRejectedError(this.masked(`adyen refused to download ${fileName}: ${said}`), res.status);
  }

  /** The API key, should anything quote it back: only its last 4 characters. */
  private masked(text: string): string {
    const key = this.options.apiKey;
    return key.length > 4 ? text.split(key).join(`••••${key.slice(-4)}`) : text;
  }
}
