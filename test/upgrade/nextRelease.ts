import fs from 'node:fs';
import path from 'node:path';
import { writeWorkflowBundle } from '../../scripts/workflow-bundle';

const REPO = path.resolve(__dirname, '../..');

/** The patch the next release adds, the way patches.ts documents it. */
export const NEXT_RELEASE_PATCH = 'rolling-upgrade-code-version-2';

/**
 * "The next release" of the worker for the rolling-upgrade test: this repository's workflow code
 * with one change added the documented way (a `patched()` branch): from the patch on, each event
 * a payment's workflow applies also stamps its memo `codeVersion: 2`. Runs begun on the old code
 * replay their history without the marker (patched() is false there) and take the new branch only
 * for what happens after the upgrade. Written as a copy of workflows/ and core/ inside the
 * repository (git-ignored .test-stack/, so the SDK's bundler finds node_modules and compiles the
 * copy: it leaves whatever lies under node_modules as it is), bundled as a release ships it.
 */
export async function nextReleaseBundle(dir: string): Promise<string> {
  const root = path.join(REPO, '.test-stack', `next-release-${path.basename(dir)}`);
  fs.rmSync(root, { recursive: true, force: true });
  for (const part of ['workflows', 'core']) fs.cpSync(path.join(REPO, part), path.join(root, part), { recursive: true });
  const run = path.join(root, 'workflows', 'payment', 'run.ts');
  const source = fs.readFileSync(run, 'utf8');
  const changed = source
    // upsertMemo (and patched, when the file does not import it) added to the file's import from the SDK, whatever else it imports.
    .replace(
      /import \{ ([^}]*) \} from '@temporalio\/workflow';/,
      (_, names: string) => `import { ${/\bpatched\b/.test(names) ? names : `${names}, patched`}, upsertMemo } from '@temporalio/workflow';`,
    )
    .replace('    this.state = result.state;\n', `    this.state = result.state;\n    if (patched('${NEXT_RELEASE_PATCH}')) upsertMemo({ codeVersion: 2 });\n`);
  // The anchors moved: say so rather than test an unchanged release.
  if (!changed.includes('upsertMemo({ codeVersion: 2 })') || !changed.includes(', upsertMemo }'))
    throw new Error(`the next release's change no longer applies to ${run}`);
  fs.writeFileSync(run, changed);
  try {
    return await writeWorkflowBundle(path.join(dir, 'next-release-bundle.js'), require.resolve(path.join(root, 'workflows')));
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
