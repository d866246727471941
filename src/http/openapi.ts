import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from '../domain/zod';

/** The API's error shape (README, "Conventions of every endpoint"). */
export const ErrorBody = z
  .object({
    timestamp: z.string().openapi({ example: '2026-11-22T10:00:00.000Z' }),
    status: z.number().int(),
    error: z.string().openapi({ example: 'Bad Request' }),
    message: z.string().openapi({ example: 'amount: must be greater than 0' }),
  })
  .openapi('Error');

export function createRegistry(): OpenAPIRegistry {
  const registry = new OpenAPIRegistry();
  registry.register('Error', ErrorBody);
  registry.registerComponent('securitySchemes', 'ApiKey', { type: 'apiKey', in: 'header', name: 'X-API-Key' });
  registry.registerComponent('securitySchemes', 'BearerApiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'The API key as a bearer token (isp_live_... or isp_test_...)',
  });
  registry.registerComponent('securitySchemes', 'Session', {
    type: 'http',
    scheme: 'bearer',
    description: 'Dashboard session token from POST /api/auth/login',
  });
  return registry;
}

export function generateDocument(registry: OpenAPIRegistry): object {
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'In-store payments API',
      version: '1.0.0',
      description: 'Put a bill on a card or QR terminal, follow it, cancel or void it, and hear about every outcome through signed webhooks.',
    },
    servers: [{ url: '/' }],
  });
}
