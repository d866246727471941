import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { collectLines, waitForLine } from './lines';

/**
 * A child process of the service (Temporal dev server, embedded database). Its stdin is a pipe we
 * hold: when this process dies, however abruptly, the child sees end-of-file and stops too
 * (the embedded database watches for it; the Temporal CLI is stopped by its process group).
 */
export class ManagedChild extends EventEmitter {
  readonly process: ChildProcess;
  /** The last lines the child printed, for error messages. */
  readonly recentLines: string[] = [];
  private readonly exited: Promise<void>;
  private hasExited = false;

  constructor(
    readonly name: string,
    command: string,
    args: string[],
    env: NodeJS.ProcessEnv = process.env,
  ) {
    super();
    this.process = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    collectLines(this, [this.process.stdout!, this.process.stderr!], 50);
    this.exited = new Promise((resolve) =>
      this.process.once('exit', (code, signal) => {
        this.hasExited = true;
        this.emit('exit', code, signal);
        resolve();
      }),
    );
  }

  get running(): boolean {
    return !this.hasExited;
  }

  /** Resolves with the first printed line matching `pattern`, including lines already printed. */
  waitForLine(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
    return waitForLine(this, pattern, timeoutMs, true);
  }

  async stop(timeoutMs = 10_000): Promise<void> {
    if (this.hasExited) return;
    this.process.kill('SIGTERM');
    const timer = setTimeout(() => this.process.kill('SIGKILL'), timeoutMs);
    await this.exited;
    clearTimeout(timer);
  }
}
