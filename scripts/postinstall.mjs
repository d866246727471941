// `npm install` does all set-up: the Prisma client (offline) and the Temporal CLI binary.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
for (const script of ['prisma-generate.mjs', 'install-temporal-cli.mjs']) {
  execFileSync(process.execPath, [path.join(here, script)], { stdio: 'inherit' });
}
