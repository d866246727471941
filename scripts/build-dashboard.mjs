// Builds the merchant dashboard (dashboard/) into dashboard/dist, which the API serves at
// /dashboard. Run by `npm install` (postinstall) and `npm run dashboard:build`. Type-checks first,
// so a broken dashboard fails the install rather than the browser.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const app = path.join(root, 'dashboard');
if (!fs.existsSync(path.join(app, 'index.html'))) {
  // An install before the sources are copied (a container's dependency layer): built later.
  console.log('build-dashboard: no dashboard sources yet; skipped');
  process.exit(0);
}
const bin = (name) => path.join(root, 'node_modules', name);
execFileSync(process.execPath, [bin('typescript/bin/tsc'), '-p', path.join(app, 'tsconfig.json')], { stdio: 'inherit', cwd: root });
execFileSync(process.execPath, [bin('vite/bin/vite.js'), 'build', '--config', path.join(app, 'vite.config.mts'), '--logLevel', 'warn'], {
  stdio: 'inherit',
  cwd: root,
});
console.log('build-dashboard: dashboard/dist ready');
