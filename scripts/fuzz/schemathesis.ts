/**
 * The schemathesis CLI, pinned, installed on first use into `.tools/schemathesis` (git-ignored)
 * with `python3 -m pip --target`, so a fresh machine or CI needs nothing installed by hand.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const SCHEMATHESIS_VERSION = '4.32.5';

export interface Schemathesis {
  /** The `st` entry point. */
  bin: string;
  /** What PYTHONPATH must hold for `st` to import its packages. */
  pythonPath: string;
}

function installedVersion(target: string): string | undefined {
  const bin = path.join(target, 'bin', 'st');
  if (!fs.existsSync(bin)) return undefined;
  const res = spawnSync(bin, ['--version'], { env: { ...process.env, PYTHONPATH: target }, encoding: 'utf8' });
  return /version\s+(\S+)/.exec(res.stdout ?? '')?.[1];
}

export function ensureSchemathesis(root: string, log: (line: string) => void): Schemathesis {
  const target = path.join(root, '.tools', 'schemathesis');
  if (installedVersion(target) !== SCHEMATHESIS_VERSION) {
    log(`installing schemathesis ${SCHEMATHESIS_VERSION} into ${path.relative(root, target)}`);
    fs.rmSync(target, { recursive: true, force: true });
    const res = spawnSync(
      'python3',
      ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--target', target, `schemathesis==${SCHEMATHESIS_VERSION}`],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
    if (res.status !== 0 || installedVersion(target) !== SCHEMATHESIS_VERSION) {
      throw new Error(`could not install schemathesis ${SCHEMATHESIS_VERSION} with 'python3 -m pip'; install Python 3.9+ with pip and retry`);
    }
  }
  return { bin: path.join(target, 'bin', 'st'), pythonPath: target };
}
