import { spawnSync } from 'node:child_process';
import { isBuildCurrent } from '../src/process/tsx';
import { PROJECT_ROOT } from '../src/paths';

/**
 * What the bench's service processes run: the build, as `npm start` runs it (dist/, compiled
 * once), built first when a source changed since the last build (a fresh clone has none); or,
 * for a CPU profile, the TypeScript sources through tsx, so the profile names source files. tsx
 * turns Node's source maps on, which the workflow sandbox's stack trace per promise then pays
 * for: the sources cost tens of CPU ms per lifecycle more than the build (docs/benchmark.md).
 */
export type ServiceCode = 'build' | 'sources';

export function prepareServiceCode(profiling: boolean): ServiceCode {
  if (profiling) return 'sources';
  if (!isBuildCurrent(PROJECT_ROOT)) {
    console.log('the build is older than the sources: npm run build (the service runs what npm start runs)');
    const built = spawnSync('npm', ['run', 'build'], { cwd: PROJECT_ROOT, stdio: 'inherit' });
    if (built.status !== 0) throw new Error(`npm run build failed (exit ${built.status})`);
  }
  return 'build';
}
