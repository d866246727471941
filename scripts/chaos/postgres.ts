import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ServiceProcess, withGuard } from '../../support/serviceProcess';

/**
 * A throw-away PostgreSQL cluster the chaos runner controls (as scripts/with-postgres.sh makes
 * one), so that it can restart the server in the middle of a run. The server runs in the
 * foreground as a child process group of the runner (not daemonised by pg_ctl), so it dies with
 * the runner whatever happens. Debian's packages are expected under /usr/lib/postgresql/<v>/bin.
 */
export function findPostgresBin(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!fs.existsSync(base)) return undefined;
  const versions = fs
    .readdirSync(base)
    .filter((v) => fs.existsSync(path.join(base, v, 'bin', 'postgres')) && fs.existsSync(path.join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(a) - Number(b));
  const last = versions.at(-1);
  return last ? path.join(base, last, 'bin') : undefined;
}

const isRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;
/** PostgreSQL refuses to run as root: run its programs as the `postgres` user then. */
const asPostgres = (program: string, args: string[]): [string, string[]] =>
  isRoot() ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, args];

export class PostgresCluster {
  readonly dir: string;
  readonly dataDir: string;
  server?: ServiceProcess;

  constructor(
    readonly bin: string,
    readonly port: number,
    private readonly onLine?: (line: string) => void,
  ) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'isp-chaos-pg-'));
    this.dataDir = path.join(this.dir, 'data');
    if (isRoot()) execFileSync('chown', ['postgres:postgres', this.dir]);
  }

  get url(): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/payments`;
  }

  /** initdb, start, createdb. */
  async create(): Promise<void> {
    const [cmd, args] = asPostgres(path.join(this.bin, 'initdb'), ['-D', this.dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
    execFileSync(cmd, args, { stdio: 'ignore' });
    await this.start();
    const [c2, a2] = asPostgres(path.join(this.bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(this.port), '-U', 'postgres', 'payments']);
    execFileSync(c2, a2, { stdio: 'ignore' });
  }

  async start(): Promise<void> {
    const [cmd, args] = asPostgres(path.join(this.bin, 'postgres'), [
      '-D',
      this.dataDir,
      '-p',
      String(this.port),
      '-k',
      this.dir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=300',
      // The restart kills the server, not the machine: the operating system keeps what was written,
      // so fsync can be off. synchronous_commit stays on: a commit is acknowledged only once its WAL
      // is written, as in production; off, a crash loses acknowledged commits, which no service survives.
      '-c',
      'fsync=off',
    ]);
    this.server = new ServiceProcess({
      name: 'postgresql',
      command: process.execPath,
      args: [path.join(__dirname, '../../support/guardedExec.cjs'), cmd, ...args],
      env: withGuard({ ...process.env }),
      ready: /database system is ready to accept connections/,
      readyTimeoutMs: 60_000,
      onLine: this.onLine,
    });
    await this.server.start();
  }

  /**
   * Restarts the server: an immediate shutdown (SIGQUIT: every backend stops at once, as in a
   * crash; crash recovery on the next start), then a start on the same data directory.
   */
  async restart(): Promise<void> {
    const server = this.server;
    if (server?.running && server.pid) {
      try {
        process.kill(-server.pid, 'SIGQUIT');
      } catch {
        // already gone
      }
      const timer = setTimeout(() => void server.kill9(), 15_000);
      await new Promise<void>((resolve) => (server.running ? server.once('exit', () => resolve()) : resolve()));
      clearTimeout(timer);
    }
    await this.start();
  }

  /** Stops the server (fast) and removes every file. */
  async destroy(): Promise<void> {
    await this.server?.stop(10_000);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
