/**
 * The package's public entry point for code outside the service, such as a merchant's webhook
 * receiver. Keep it free of side effects: nothing here may start servers or read configuration.
 */
export { verifyWebhookSignature } from './webhooks/signature';
export { EVENT_TYPES, type EventType } from './webhooks/events';
