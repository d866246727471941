/**
 * The dashboard's way to the API: the generated client (@in-store-payments/client) with its
 * default client configured once here: same origin, the session token in the Authorization header
 * (never in a URL), every non-2xx an ApiError. A 401 on a signed-in call means the session ended:
 * the app returns to sign-in. Pages call the generated functions (`listDashboardPayments(...)`).
 */
import { ApiError, client, configureClient } from '@in-store-payments/client';

export { ApiError };

const TOKEN_KEY = 'isp.dashboard.session';
let onSessionEnded: () => void = () => {};
/** Set when the API ended the session (a 401), so the sign-in page can say why it is shown. */
let endedByApi = false;
export const takeSessionEndedNotice = (): boolean => {
  const was = endedByApi;
  endedByApi = false;
  return was;
};

export const sessionToken = (): string | null => sessionStorage.getItem(TOKEN_KEY);
export const setSessionToken = (token: string | null): void => {
  if (token) sessionStorage.setItem(TOKEN_KEY, token);
  else sessionStorage.removeItem(TOKEN_KEY);
};
export const whenSessionEnds = (fn: () => void): void => {
  onSessionEnded = fn;
};

configureClient(client, { baseUrl: '', sessionToken });
client.interceptors.error.use((error, _response, request) => {
  // Sign-in itself sends no token: a 401 there is a wrong password, not an ended session.
  if (error instanceof ApiError && error.status === 401 && request?.headers.has('Authorization')) {
    endedByApi = true;
    setSessionToken(null);
    onSessionEnded();
  }
  return error;
});

/** A query without its unset filters (empty form fields), as the API wants them absent. */
export function present<T extends object>(params: T): T {
  return Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== '')) as T;
}

export function saveText(text: string, filename: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  URL.revokeObjectURL(url);
}
