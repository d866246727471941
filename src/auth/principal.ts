import type { KeyMode } from './apiKeys';

/** Who is calling: a business's API key, or a signed-in dashboard user. */
export interface ApiKeyPrincipal {
  kind: 'apiKey';
  merchantId: string;
  merchantExternalId: string;
  apiKeyId: string;
  mode: KeyMode;
  scopes: string[];
}

export interface UserPrincipal {
  kind: 'user';
  merchantId: string;
  merchantExternalId: string;
  merchantName: string;
  userId: number;
  username: string;
  roles: string[];
  sessionId: string;
}

export type Principal = ApiKeyPrincipal | UserPrincipal;

/** The data world a caller acts in: an API key's own mode; a signed-in dashboard user sees live data. */
export function modeOf(principal: Principal): KeyMode {
  return principal.kind === 'apiKey' ? principal.mode : 'live';
}
