/**
 * `npm run build:workflows -- [--workflows DIR] [--out FILE]`: the worker's workflow code as one
 * prebuilt bundle (the SDK's bundleWorkflowCode), for WORKFLOW_BUNDLE (docs/operations.md). A
 * worker started with it loads the file instead of bundling the sources at each start; a release
 * ships its bundle, and a rolling upgrade is a worker on the new bundle replacing one on the old.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { WORKFLOW_INTERCEPTOR_MODULES, WORKFLOWS_PATH } from '../src/temporal/workflowsPath';

export async function writeWorkflowBundle(out: string, workflowsPath = WORKFLOWS_PATH): Promise<string> {
  const { code } = await bundleWorkflowCode({ workflowsPath, workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES, logger: quietLogger });
  fs.mkdirSync(path.dirname(out), { recursive: true });
  // Written whole, then moved in place: a worker never reads half a bundle (nor two writers' halves).
  const partial = `${out}.${process.pid}.partial`;
  fs.writeFileSync(partial, code);
  fs.renameSync(partial, out);
  return out;
}

const ROOT = path.resolve(__dirname, '..');

/**
 * The bundle of the workflows as they are now, built once per version of its inputs and kept in the
 * machine's temporary folder: the test lanes and every replay test load it instead of bundling the
 * same sources again (seconds of CPU each). Its name is a hash of everything the bundle is made of:
 * workflows/ and core/ (the only code workflow code may import: eslint.config.mjs), the locked
 * libraries, and how it is bundled (this file, src/temporal/workflowsPath.ts). A change to any of
 * them makes a new bundle; the newest few are kept.
 */
export async function cachedWorkflowBundle(): Promise<string> {
  const dir = path.join(os.tmpdir(), 'isp-workflow-bundles');
  const out = path.join(dir, `${bundleInputsHash()}.js`);
  if (fs.existsSync(out)) return out;
  await writeWorkflowBundle(out);
  prune(dir, 8);
  return out;
}

function bundleInputsHash(): string {
  const hash = crypto.createHash('sha256');
  const add = (file: string) => hash.update(path.relative(ROOT, file)).update('\0').update(fs.readFileSync(file)).update('\0');
  const walk = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]))
      .sort();
  for (const file of [...walk(path.join(ROOT, 'workflows')), ...walk(path.join(ROOT, 'core'))]) add(file);
  for (const file of ['package-lock.json', 'scripts/workflow-bundle.ts', 'src/temporal/workflowsPath.ts', 'tsconfig.json']) add(path.join(ROOT, file));
  return hash.digest('hex').slice(0, 24);
}

/** Keeps the `keep` newest bundles of the folder (a bundle being written is a .partial, never removed here). */
function prune(dir: string, keep: number): void {
  const bundles = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .map((f) => ({ f, at: fs.statSync(path.join(dir, f)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { f } of bundles.slice(keep)) fs.rmSync(path.join(dir, f), { force: true });
}

const noop = (): void => undefined;
const quietLogger = { log: noop, trace: noop, debug: noop, info: noop, warn: (m: string) => console.warn(m), error: (m: string) => console.error(m) };

if (require.main === module) {
  const arg = (name: string): string | undefined => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const workflows = arg('workflows');
  const out = path.resolve(arg('out') ?? 'dist/workflow-bundle.js');
  writeWorkflowBundle(out, workflows ? require.resolve(path.resolve(workflows)) : undefined).then(
    (file) => console.log(`workflow bundle written: ${file}`),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
