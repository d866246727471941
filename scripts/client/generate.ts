/**
 * Generates the TypeScript client's code (clients/typescript/src/generated) from the API's OpenAPI
 * document with @hey-api/openapi-ts: one typed function per operation, named by its operationId,
 * over hey-api's fetch client. Run by `npm install` (scripts/postinstall.mjs) and
 * `npm run client:generate`; the output is not committed (README, "Client libraries").
 */
import fs from 'node:fs';
import path from 'node:path';
import { apiDocument } from '../../src/http/apiDocument';

const out = path.resolve(__dirname, '../../clients/typescript/src/generated');

async function main(): Promise<void> {
  // ESM only: imported, not required.
  const { createClient } = await import('@hey-api/openapi-ts');
  fs.rmSync(out, { recursive: true, force: true });
  await createClient({
    input: apiDocument(),
    output: { path: out },
    // The client is configured at run time (baseUrl, credentials): see clients/typescript/src/client.ts.
    // Every non-2xx throws (as ApiError, src/errors.ts), so a call's `data` is typed as present.
    plugins: [{ name: '@hey-api/client-fetch', throwOnError: true }, '@hey-api/typescript', '@hey-api/sdk'],
    logs: { level: 'warn' },
  });
  console.log(`client:generate: ${path.relative(process.cwd(), out)} ready`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
