/**
 * Lints the API's OpenAPI document with Redocly's linter (its `recommended` rules, plus a unique
 * operationId on every operation): `npm run openapi:lint`. Prints each problem and, last, one JSON
 * line `{"errors":N,"warnings":N}`; exits 1 when there is an error.
 */
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { apiDocument } from '../../src/http/apiDocument';

async function main(): Promise<void> {
  const config = await createConfig({
    extends: ['recommended'],
    rules: { 'operation-operationId': 'error', 'operation-operationId-unique': 'error', 'operation-operationId-url-safe': 'error' },
  });
  const problems = await lintFromString({ source: JSON.stringify(apiDocument()), absoluteRef: 'openapi.json', config });
  for (const p of problems) console.log(`${p.severity} ${p.ruleId}: ${p.message} (${p.location.map((l) => l.pointer).join(', ')})`);
  const errors = problems.filter((p) => p.severity === 'error').length;
  console.log(JSON.stringify({ errors, warnings: problems.length - errors }));
  process.exitCode = errors ? 1 : 0;
}

void main();
