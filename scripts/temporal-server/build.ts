/**
 * Builds the Temporal server and its SQL schema tool from the server's own Go module, once: the
 * binaries are kept under .tools/temporal-server/v<version>/ (git-ignored) and reused. The machine's
 * Go may be older than the version the module asks for: GOTOOLCHAIN=auto lets the go command fetch
 * the newer toolchain through the module proxy (which needs Go 1.21 or newer to start from).
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The server version every engine of ours runs: this build, docker-compose.yml (test/compose.unit.test.ts). */
export const TEMPORAL_SERVER_VERSION = '1.32.2';
const MODULE = 'go.temporal.io/server';
const REPO = path.resolve(__dirname, '../..');

export interface TemporalServerBinaries {
  server: string;
  sqlTool: string;
}

export function binariesDir(version = TEMPORAL_SERVER_VERSION): string {
  return path.join(REPO, '.tools', 'temporal-server', `v${version}`);
}

function binariesIn(dir: string): TemporalServerBinaries {
  return { server: path.join(dir, 'temporal-server'), sqlTool: path.join(dir, 'temporal-sql-tool') };
}

const isFile = (p: string): boolean => fs.existsSync(p) && fs.statSync(p).isFile();

/** GO names the go command; else `go` on PATH, else Go's usual install folder. */
function findGo(): string | undefined {
  if (process.env.GO) return process.env.GO;
  for (const dir of [...(process.env.PATH ?? '').split(path.delimiter), '/usr/local/go/bin']) {
    if (dir && isFile(path.join(dir, 'go'))) return path.join(dir, 'go');
  }
  return undefined;
}

/** [major, minor] of `go1.26.8`-style versions. */
function goMinor(version: string): [number, number] | undefined {
  const m = /^go(\d+)\.(\d+)/.exec(version);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

const NO_GO =
  'Building the Temporal server needs Go 1.21 or newer (it fetches the newer toolchain the server asks for ' +
  'through the Go module proxy, GOTOOLCHAIN=auto).';

/** The go command and its version, or an error that says what is missing. */
export function checkGo(): { go: string; version: string } {
  const go = findGo();
  if (!go) throw new Error(`${NO_GO} No go command found on PATH nor in /usr/local/go/bin: install Go, or set GO=/path/to/go.`);
  let version: string;
  try {
    version = execFileSync(go, ['env', 'GOVERSION'], { encoding: 'utf8', env: { ...process.env, GOTOOLCHAIN: 'local' }, cwd: os.tmpdir() }).trim();
  } catch (err) {
    throw new Error(`${NO_GO} ${go} does not run: ${(err as Error).message}`);
  }
  const v = goMinor(version);
  if (!v || v[0] < 1 || (v[0] === 1 && v[1] < 21)) {
    throw new Error(
      `${NO_GO} ${go} is ${version}, too old to fetch a newer toolchain (Debian bookworm's golang-go is 1.19): install Go 1.21 or newer, or set GO=/path/to/go.`,
    );
  }
  return { go, version };
}

/** The binaries, built first when missing. `log` gets the build's progress (the go command's output). */
export async function ensureTemporalServerBuilt(log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Promise<TemporalServerBinaries> {
  const dir = binariesDir();
  const bins = binariesIn(dir);
  if (isFile(bins.server) && isFile(bins.sqlTool)) return bins;

  const { go, version } = checkGo();
  const started = Date.now();
  log(`temporal-server: building ${MODULE} v${TEMPORAL_SERVER_VERSION} with ${version} (once; minutes) into ${dir}`);
  // Built into a folder of this process, then moved in place: a build cut short leaves nothing
  // that looks finished, and two builds at once do not mix their files.
  const staging = `${dir}.building-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, GOBIN: staging, GOTOOLCHAIN: 'auto', CGO_ENABLED: '0', GOFLAGS: '-buildvcs=false' };
  const pkgs = [`${MODULE}/cmd/server@v${TEMPORAL_SERVER_VERSION}`, `${MODULE}/cmd/tools/sql@v${TEMPORAL_SERVER_VERSION}`];
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(go, ['install', ...pkgs], { env, cwd: os.tmpdir(), stdio: ['ignore', 'pipe', 'pipe'] });
      const tail: string[] = [];
      const onData = (chunk: Buffer): void => {
        for (const line of chunk.toString().split('\n').filter(Boolean)) {
          tail.push(line);
          if (tail.length > 40) tail.shift();
          if (!line.startsWith('go: downloading')) log(`  ${line}`);
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.on('error', (err) => reject(new Error(`${NO_GO} ${go}: ${err.message}`)));
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`go install ${pkgs.join(' ')} failed (exit ${code}):\n${tail.join('\n')}`))));
    });
    fs.renameSync(path.join(staging, 'server'), path.join(staging, 'temporal-server'));
    fs.renameSync(path.join(staging, 'sql'), path.join(staging, 'temporal-sql-tool'));
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(staging, dir);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  log(`temporal-server: built in ${Math.round((Date.now() - started) / 1000)} s`);
  return bins;
}
