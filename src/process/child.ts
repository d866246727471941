import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import readline from 'node:readline';

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

  constructor(readonly name: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
    super();
    this.process = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    for (const stream of [this.process.stdout!, this.process.stderr!]) {
      readline.createInterface({ input: stream }).on('line', (line) => {
        this.recentLines.push(line);
        if (this.recentLines.length > 50) this.recentLines.shift();
        this.emit('line', line);
      });
    }
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

  /** Resolves with the first printed line matching `pattern`. */
  waitForLine(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const onLine = (line: string): void => {
        const m = line.match(pattern);
        if (m) finish(() => resolve(m));
      };
      const onExit = (code: number | null): void =>
        finish(() => reject(new Error(`${this.name} exited (code ${code}) before it was ready:\n${this.recentLines.join('\n')}`)));
      const timer = setTimeout(
        () => finish(() => reject(new Error(`${this.name} not ready within ${timeoutMs} ms:\n${this.recentLines.join('\n')}`))),
        timeoutMs,
      );
      const finish = (settle: () => void): void => {
        clearTimeout(timer);
        this.off('line', onLine);
        this.off('exit', onExit);
        settle();
      };
      this.on('line', onLine);
      this.once('exit', onExit);
      for (const l of this.recentLines) onLine(l);
    });
  }

  async stop(timeoutMs = 10_000): Promise<void> {
    if (this.hasExited) return;
    this.process.kill('SIGTERM');
    const timer = setTimeout(() => this.process.kill('SIGKILL'), timeoutMs);
    await this.exited;
    clearTimeout(timer);
  }
}
