import { z } from '../domain/zod';
import { invalid } from '../domain/errors';
import { openSecret, sealSecret } from '../secrets/active';

/**
 * An acquirer account's credentials (docs/acquirers.md, "Accounts"): the fields of each acquirer, checked against
 * the account's mode, sealed at rest as one JSON value, and answered only masked ("••••" and the
 * last 4 characters). The clear values leave this module only towards an adapter.
 */
export const ACQUIRER_KINDS = ['sandbox', 'stripe', 'adyen'] as const;
export type AcquirerKind = (typeof ACQUIRER_KINDS)[number];
export type AccountMode = 'live' | 'test';

const secret = (what: string) => z.string({ error: 'must be a string' }).min(8, `must be ${what}`).max(500, 'must be at most 500 characters');

const SCHEMAS = {
  sandbox: z.strictObject({}),
  stripe: z.strictObject({
    apiKey: secret('a Stripe secret or restricted key (sk_ or rk_)').regex(
      /^(sk|rk)_(test|live)_[A-Za-z0-9]+$/,
      'must be a Stripe secret or restricted key (sk_ or rk_)',
    ),
    webhookSecret: secret("the endpoint's signing secret (whsec_)").regex(/^whsec_[A-Za-z0-9]+$/, "must be the webhook endpoint's signing secret (whsec_)"),
  }),
  adyen: z.strictObject({
    apiKey: secret('an Adyen API key'),
    hmacKey: secret('a hex HMAC key').regex(/^[0-9A-Fa-f]+$/, 'must be the hex HMAC key of the notification webhook'),
    environment: z.enum(['TEST', 'LIVE'], { error: 'must be TEST or LIVE' }),
    // Optional (LIVE only): the company's live Checkout prefix, for two-step capture and release.
    liveEndpointUrlPrefix: z
      .string({ error: 'must be a string' })
      .regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,99}$/, "must be the account's live endpoint URL prefix, e.g. 1797a841fbb37ca7-AdyenDemo")
      .optional(),
  }),
} as const;

export type Credentials = Record<string, string>;

/** The credentials of `acquirer` for an account of `mode`, or 400 naming `credentials` (and the field). */
export function checkCredentials(acquirer: AcquirerKind, mode: AccountMode, input: unknown): Credentials {
  const parsed = SCHEMAS[acquirer].safeParse(input ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue.path.map(String).join('.');
    const reason =
      issue.code === 'unrecognized_keys'
        ? `unknown field not accepted for ${acquirer}`
        : issue.code === 'invalid_type' && issue.input === undefined
          ? 'is required'
          : issue.message;
    throw invalid(`credentials${field ? `.${field}` : ''}: ${reason}`);
  }
  const credentials = parsed.data as Credentials;
  if (acquirer === 'adyen' && credentials.liveEndpointUrlPrefix && credentials.environment !== 'LIVE')
    throw invalid('credentials.liveEndpointUrlPrefix: only a LIVE account has a live endpoint URL prefix');
  const wrong = modeOf(acquirer, credentials);
  if (wrong && wrong !== mode) throw invalid(`credentials: ${wrong}-mode credentials cannot serve a ${mode} account`);
  return credentials;
}

/** The mode the credentials themselves say (Stripe's key prefix, Adyen's environment); sandbox: none. */
function modeOf(acquirer: AcquirerKind, c: Credentials): AccountMode | undefined {
  if (acquirer === 'stripe') return /^(sk|rk)_live_/.test(c.apiKey!) ? 'live' : 'test';
  if (acquirer === 'adyen') return c.environment === 'LIVE' ? 'live' : 'test';
  return undefined;
}

/** "••••" and the last 4 characters of each field; never more. */
export function hintsOf(credentials: Credentials): Record<string, string> {
  return Object.fromEntries(Object.entries(credentials).map(([k, v]) => [k, `••••${v.slice(-4)}`]));
}

export const sealCredentials = (credentials: Credentials): string => sealSecret(JSON.stringify(credentials), 'acquirer');
export const openCredentials = (stored: string): Credentials => JSON.parse(openSecret(stored, 'acquirer')) as Credentials;
