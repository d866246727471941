/**
 * @in-store-payments/client: one typed function per API operation (generated from the OpenAPI
 * document, named by operationId) and the hand-written rest: credentials set once, ApiError,
 * retries of the operations safe to repeat, webhook verification.
 */
export * from './generated';
export { client } from './generated/client.gen';
export type { Client } from './generated/client';
export { createClient, configureClient, type ClientSettings } from './client';
export { ApiError, type ApiErrorBody } from './errors';
export { retryingFetch, isSafeToRetry, type RetryPolicy } from './retry';
export { verifyWebhook } from './webhooks';
