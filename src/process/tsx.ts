import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROJECT_ROOT } from '../paths';

/**
 * Node arguments that run a TypeScript file with tsx's loader inside the node process itself.
 * Not the tsx CLI: it runs the file in a grandchild and relays signals to it, and when the relay
 * takes over 30 ms (a busy machine) it SIGKILLs the grandchild and exits 143, so a clean stop
 * on SIGTERM becomes a kill (and kill -9 of the CLI would miss the grandchild).
 */
export function tsxNodeArgs(file: string): string[] {
  return ['--require', require.resolve('tsx/preflight'), '--import', pathToFileURL(require.resolve('tsx')).href, file];
}

/**
 * Node arguments that run one of the service's files (under src, core, activities or workflows) in
 * a child process: its compiled twin in dist/ when the build is up to date with every source, as
 * `npm install` leaves it (what `npm start` runs, and about half the CPU to start: tsx's loader
 * hooks every module); otherwise, with a source edited since the build, the source through tsx.
 * Tests, tools and CI start many such children (workers, the operator CLI, the embedded database).
 */
export function serviceNodeArgs(file: string, root = PROJECT_ROOT): string[] {
  const relative = path.relative(root, path.resolve(file));
  const built = path.join(root, 'dist', relative.replace(/\.ts$/, '.js'));
  return buildIsCurrent(root) && fs.existsSync(built) ? [built] : tsxNodeArgs(file);
}

/** Per project root, for the life of the process: the sources do not change under a running test. */
const current = new Map<string, boolean>();

function buildIsCurrent(root: string): boolean {
  const known = current.get(root);
  if (known !== undefined) return known;
  const isCurrent = isBuildCurrent(root);
  current.set(root, isCurrent);
  return isCurrent;
}

/** Whether dist/ was built after the last change of any source it compiles (tsconfig.build.json's folders), read now. */
export function isBuildCurrent(root = PROJECT_ROOT): boolean {
  let builtAt: number;
  try {
    builtAt = fs.statSync(path.join(root, 'dist/.tsbuildinfo')).mtimeMs;
  } catch {
    return false;
  }
  const newerThanBuild = (dir: string): boolean =>
    fs.readdirSync(dir, { withFileTypes: true }).some((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name !== 'node_modules' && newerThanBuild(full);
      return /\.(ts|json)$/.test(entry.name) && fs.statSync(full).mtimeMs > builtAt;
    });
  const sources = ['src', 'core', 'activities', 'workflows'].map((d) => path.join(root, d)).filter((d) => fs.existsSync(d));
  return !sources.some(newerThanBuild);
}
