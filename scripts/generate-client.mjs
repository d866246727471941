// Generates the TypeScript client (clients/typescript/src/generated) from the API's OpenAPI
// document: run by `npm install` (postinstall, before the dashboard build, which imports it) and
// `npm run client:generate`. The generator itself is scripts/client/generate.ts.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (!fs.existsSync(path.join(root, 'src/http/apiDocument.ts'))) {
  // An install before the sources are copied (a container's dependency layer): generated later.
  console.log('generate-client: no API sources yet; skipped');
  process.exit(0);
}
execFileSync(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), path.join(root, 'scripts/client/generate.ts')], {
  stdio: 'inherit',
  cwd: root,
});
