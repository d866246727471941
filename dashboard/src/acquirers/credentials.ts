import type { AcquirerAccount } from '@in-store-payments/client';
type AcquirerName = AcquirerAccount['acquirer'];

/**
 * The credentials each acquirer's account needs (docs/acquirers.md, "Accounts"), with the labels the forms show.
 * `secret` fields are typed like passwords; `choices` make a select.
 */
export interface CredentialField {
  key: string;
  label: string;
  secret?: boolean;
  choices?: readonly string[];
}

export const ACQUIRERS: readonly { value: AcquirerName; label: string }[] = [
  { value: 'sandbox', label: 'Sandbox' },
  { value: 'stripe', label: 'Stripe' },
  { value: 'adyen', label: 'Adyen' },
];

export const CREDENTIAL_FIELDS: Record<AcquirerName, readonly CredentialField[]> = {
  sandbox: [],
  stripe: [
    { key: 'apiKey', label: 'Stripe API key', secret: true },
    { key: 'webhookSecret', label: 'Stripe webhook signing secret', secret: true },
  ],
  adyen: [
    { key: 'apiKey', label: 'Adyen API key', secret: true },
    { key: 'hmacKey', label: 'Adyen HMAC key', secret: true },
    { key: 'environment', label: 'Adyen environment', choices: ['TEST', 'LIVE'] },
  ],
};

/** Empty credentials of an acquirer for a mode: Adyen's environment follows the mode. */
export function emptyCredentials(acquirer: AcquirerName, mode: 'live' | 'test'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of CREDENTIAL_FIELDS[acquirer]) out[f.key] = f.choices ? (mode === 'live' ? 'LIVE' : 'TEST') : '';
  return out;
}
