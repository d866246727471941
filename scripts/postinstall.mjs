// `npm install` does all set-up: the Prisma client (offline), the Temporal CLI binary, and the
// compiled service in dist/ that `npm start` and `npm run admin` run (docs/architecture.md), the
// TypeScript client generated from the API document (scripts/generate-client.mjs; the dashboard
// imports it, so it comes first), and the merchant dashboard in dashboard/dist (scripts/build-dashboard.mjs).
// The build is skipped when the sources are not there yet (the Docker image installs its
// dependencies before it copies the code, then runs `npm run build` itself).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);
for (const script of ['prisma-generate.mjs', 'install-temporal-cli.mjs', 'generate-client.mjs', 'build-dashboard.mjs']) {
  execFileSync(process.execPath, [path.join(here, script)], { stdio: 'inherit' });
}
if (fs.existsSync(path.join(root, 'tsconfig.build.json')) && fs.existsSync(path.join(root, 'src/main.ts'))) {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit', cwd: root });
}
