/**
 * No password, session token, API key or MFA secret ever reaches a log line: a full sign-in, user,
 * password, MFA and key flow at LOG_LEVEL=debug, with every line the service writes captured.
 */
import { hashApiKey } from '../../src/auth/apiKeys';
import { hashSessionToken } from '../../src/auth/sessions';
import { uniqueId } from '../support/fixtures';
import { call } from '../support/http';
import { capturedLogger } from '../support/capturedLogger';
import type { TestStack } from '../support/stack';
import { withStack } from '../support/suite';
import { createMerchant, createUser, login, PASSWORD, totpCode } from './helpers';

const { logger, lines } = capturedLogger('debug');

let stack: TestStack;
withStack({ LOG_LEVEL: 'debug' }, { logger }, (s) => void (stack = s));

it('keeps every secret of a full flow out of the logs', async () => {
  const secrets: string[] = [PASSWORD];
  const merchant = await createMerchant(stack.db);
  const admin = await createUser(stack.db, merchant, ['ADMIN']);
  const api = (method: string, path: string, token: string, body?: unknown) => call(stack.apiUrl, method, path, { token, body });

  // Sign-in, including failures and a lockout.
  const wrong = 'Not-the-password-123';
  secrets.push(wrong);
  expect((await call(stack.apiUrl, 'POST', '/api/auth/login', { body: { username: admin.username, password: wrong } })).status).toBe(401);
  const adminToken = await login(stack.apiUrl, admin.username);
  secrets.push(adminToken, hashSessionToken(adminToken));

  // A user created, signed in, password reset, signed in again, MFA enrolled.
  const firstPassword = `First-${uniqueId('pw')}-1`;
  const resetPassword = `Reset-${uniqueId('pw')}-2`;
  secrets.push(firstPassword, resetPassword);
  const created = await api('POST', '/api/users', adminToken, { username: uniqueId('flow'), password: firstPassword, roles: ['ROLE_FINANCE'] });
  expect(created.status).toBe(201);
  const userToken = await login(stack.apiUrl, created.body.username, firstPassword);
  secrets.push(userToken);
  expect((await api('PUT', `/api/users/${created.body.id}/password`, adminToken, { password: resetPassword })).status).toBe(204);
  const userToken2 = await login(stack.apiUrl, created.body.username, resetPassword);
  secrets.push(userToken2);
  const enrol = await api('POST', '/api/users/me/mfa/enroll', userToken2);
  secrets.push(enrol.body.secret);
  expect((await api('POST', '/api/users/me/mfa/verify', userToken2, { code: totpCode(enrol.body.secret) })).status).toBe(200);
  const userToken3 = await login(stack.apiUrl, created.body.username, resetPassword, totpCode(enrol.body.secret, 1));
  secrets.push(userToken3);
  expect((await api('POST', `/api/users/${created.body.id}/mfa/reset`, adminToken)).status).toBe(200);

  // API keys: create, use (both header forms), rotate, use both, revoke.
  const key = await api('POST', '/api/api-keys', adminToken, { name: 'flow', mode: 'live' });
  expect(key.status).toBe(201);
  secrets.push(key.body.key, hashApiKey(key.body.key));
  expect((await call(stack.apiUrl, 'GET', '/api/transactions?size=1', { key: key.body.key })).status).toBe(200);
  expect((await call(stack.apiUrl, 'GET', '/api/transactions?size=1', { token: key.body.key })).status).toBe(200);
  const rotated = await api('POST', `/api/api-keys/${key.body.id}/rotate`, adminToken);
  secrets.push(rotated.body.key, hashApiKey(rotated.body.key));
  expect((await call(stack.apiUrl, 'GET', '/api/transactions?size=1', { key: rotated.body.key })).status).toBe(200);
  expect((await api('DELETE', `/api/api-keys/${rotated.body.id}`, adminToken)).status).toBe(204);
  expect((await call(stack.apiUrl, 'GET', '/api/transactions?size=1', { key: rotated.body.key })).status).toBe(401);
  expect((await api('GET', '/api/audit-logs', adminToken)).status).toBe(200);
  expect((await api('POST', '/api/auth/logout', adminToken)).status).toBe(204);

  const output = lines.join('');
  expect(output).toContain('"msg":"request"'); // the capture works: every request logs a line
  expect(output).toContain('/api/api-keys');
  for (const secret of secrets) expect({ secret, found: output.includes(secret) }).toEqual({ secret, found: false });
});
