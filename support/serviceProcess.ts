import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import net from 'node:net';
import path from 'node:path';
import { collectLines, waitForLine } from '../src/process/lines';
import { serviceNodeArgs } from '../src/process/tsx';

/**
 * A part of the stack as a separate process in a process group of its own (`detached`), so that
 * kill -9 reaches all of it: the service and whatever it starts itself (the Temporal CLI, the
 * embedded database). TypeScript runs with tsx's loader in the process itself (tsxNodeArgs).
 *
 * Hygiene: every group started here is remembered and killed with SIGKILL when this process
 * exits, whatever the reason (installCleanup), and every Node child preloads orphanGuard.cjs, which
 * kills its group if this process dies without running any handler (kill -9 of the runner).
 */
export const REPO = path.resolve(__dirname, '..');
export const ORPHAN_GUARD = path.join(__dirname, 'orphanGuard.cjs');

const liveGroups = new Set<number>();

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** Kills every process group still alive. Synchronous: safe inside an 'exit' handler. */
export function killAllGroups(): void {
  for (const pid of liveGroups) killGroup(pid, 'SIGKILL');
  liveGroups.clear();
}

let cleanupInstalled = false;
/** Kills every child group when this process ends: normal exit, an uncaught error, or a signal. */
export function installCleanup(onSignal: (signal: NodeJS.Signals) => void = (s) => process.exit(s === 'SIGINT' ? 130 : 143)): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.on('exit', killAllGroups);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      killAllGroups();
      onSignal(signal);
    });
  }
}

/** Environment for a Node child: the orphan guard preloaded. */
export function withGuard(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const options = [env.NODE_OPTIONS ?? '', `--require ${ORPHAN_GUARD}`].filter(Boolean).join(' ');
  return { ...env, NODE_OPTIONS: options };
}

export interface ServiceProcessOptions {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** A line that means "ready"; start() resolves with its match. */
  ready: RegExp;
  readyTimeoutMs?: number;
  /** Keep the last lines for error messages (default 80). */
  keepLines?: number;
  /** Called with every line the process prints (for logs). */
  onLine?: (line: string) => void;
}

/** One startable, killable, restartable process (group). */
export class ServiceProcess extends EventEmitter {
  child?: ChildProcess;
  readonly recentLines: string[] = [];
  private exited: Promise<void> = Promise.resolve();

  constructor(readonly opts: ServiceProcessOptions) {
    super();
    if (opts.onLine) this.on('line', opts.onLine);
  }

  get name(): string {
    return this.opts.name;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Spawns the process and resolves once it prints its ready line. */
  async start(): Promise<RegExpMatchArray> {
    if (this.running) throw new Error(`${this.name} is already running`);
    const child = spawn(this.opts.command, this.opts.args, {
      cwd: this.opts.cwd ?? REPO,
      env: this.opts.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    this.child = child;
    const pid = child.pid;
    if (pid === undefined) throw new Error(`${this.name} could not be started`);
    liveGroups.add(pid);
    collectLines(this, [child.stdout!, child.stderr!], this.opts.keepLines ?? 80);
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        // The group's other members (tsx's inner process) go with it.
        killGroup(pid, 'SIGKILL');
        liveGroups.delete(pid);
        // Pipes outlive the process and would keep an event loop (jest) waiting.
        child.stdin?.destroy();
        child.stdout?.destroy();
        child.stderr?.destroy();
        this.emit('exit', code, signal);
        resolve();
      }),
    );
    return this.waitForLine(this.opts.ready, this.opts.readyTimeoutMs ?? 90_000);
  }

  /** Resolves with the next printed line matching `pattern` (earlier runs' lines do not count). */
  waitForLine(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
    return waitForLine(this, pattern, timeoutMs);
  }

  /** kill -9 of the whole group; resolves once the group leader has exited. */
  async kill9(): Promise<void> {
    const pid = this.child?.pid;
    if (pid === undefined || !this.running) return;
    killGroup(pid, 'SIGKILL');
    await this.exited;
  }

  /** SIGTERM to the group (a graceful stop), SIGKILL after `timeoutMs`. */
  async stop(timeoutMs = 10_000): Promise<void> {
    const pid = this.child?.pid;
    if (pid === undefined || !this.running) return;
    killGroup(pid, 'SIGTERM');
    const timer = setTimeout(() => killGroup(pid, 'SIGKILL'), timeoutMs);
    await this.exited;
    clearTimeout(timer);
  }
}

/** Resolves once nothing listens on host:port any more (a killed server's port is free again). */
export async function waitPortFree(port: number, host = '127.0.0.1', timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const free = await new Promise<boolean>((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(false));
      server.listen(port, host, () => server.close(() => resolve(true)));
    });
    if (free) return;
    if (Date.now() > deadline) throw new Error(`port ${host}:${port} still in use after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The API's URL from a service's ready line (`ready api=http://127.0.0.1:41234 ...`). Children
 * listen on PORT=0 and report the port they got: a port picked free beforehand may be taken by
 * someone else's connection before the child binds it (EADDRINUSE).
 */
export function apiUrlOf(ready: RegExpMatchArray): string {
  const url = /\bapi=(\S+)/.exec(ready.input ?? '')?.[1];
  if (!url) throw new Error(`no api= in the ready line: ${ready.input}`);
  return url;
}

/** A service process: `node tsx/cli.mjs src/main.ts` with the given environment (SERVICES etc.). */
export function mainProcess(name: string, env: NodeJS.ProcessEnv, onLine?: (line: string) => void): ServiceProcess {
  return new ServiceProcess({
    name,
    command: process.execPath,
    args: serviceNodeArgs(path.join(REPO, 'src/main.ts')),
    env: withGuard(env),
    ready: /^ready /,
    onLine,
  });
}
