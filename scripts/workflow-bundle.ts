/**
 * `npm run build:workflows -- [--workflows DIR] [--out FILE]`: the worker's workflow code as one
 * prebuilt bundle (the SDK's bundleWorkflowCode), for WORKFLOW_BUNDLE (docs/operations.md). A
 * worker started with it loads the file instead of bundling the sources at each start; a release
 * ships its bundle, and a rolling upgrade is a worker on the new bundle replacing one on the old.
 */
import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { WORKFLOW_INTERCEPTOR_MODULES, WORKFLOWS_PATH } from '../src/temporal/workflowsPath';

export async function writeWorkflowBundle(out: string, workflowsPath = WORKFLOWS_PATH): Promise<string> {
  const { code } = await bundleWorkflowCode({ workflowsPath, workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES, logger: quietLogger });
  fs.mkdirSync(path.dirname(out), { recursive: true });
  // Written whole, then moved in place: a worker never reads half a bundle.
  fs.writeFileSync(`${out}.partial`, code);
  fs.renameSync(`${out}.partial`, out);
  return out;
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
