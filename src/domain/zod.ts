import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

/**
 * zod with `.openapi(...)` metadata, for every schema in the service: domain schemas describe
 * themselves once and the HTTP layer publishes them as OpenAPI (src/http/openapi.ts).
 */
extendZodWithOpenApi(z);

export { z };
