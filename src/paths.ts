import fs from 'node:fs';
import path from 'node:path';

/**
 * The project's root (where package.json is), whether this code runs from its TypeScript sources
 * (tsx, tests) or compiled in dist/ (`npm start`): files beside the code (migrations, the Temporal
 * CLI) are found from here, never from a fixed number of '..'.
 */
function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const PROJECT_ROOT = findRoot(__dirname);

/** True when this process runs the compiled JavaScript of dist/ rather than the TypeScript sources. */
export const RUNNING_COMPILED = path.extname(__filename) === '.js';
