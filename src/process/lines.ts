import type { EventEmitter } from 'node:events';
import readline from 'node:readline';
import type { Readable } from 'node:stream';

/** A child process that emits each line it prints as 'line', and 'exit' when it ends. */
export interface LineSource extends EventEmitter {
  readonly name: string;
  /** The last lines printed, for error messages. */
  readonly recentLines: string[];
}

/** Emits every line of the streams on `source` as 'line', keeping the last `keep` in recentLines. */
export function collectLines(source: LineSource, streams: Readable[], keep: number): void {
  for (const stream of streams) {
    readline.createInterface({ input: stream }).on('line', (line) => {
      source.recentLines.push(line);
      if (source.recentLines.length > keep) source.recentLines.shift();
      source.emit('line', line);
    });
  }
}

/**
 * Resolves with the first line matching `pattern`; rejects when the source exits first or after
 * `timeoutMs`, quoting its last lines. `includePast` also looks at the lines already printed.
 */
export function waitForLine(source: LineSource, pattern: RegExp, timeoutMs: number, includePast = false): Promise<RegExpMatchArray> {
  const tail = (): string => source.recentLines.slice(-30).join('\n');
  return new Promise((resolve, reject) => {
    const onLine = (line: string): void => {
      const m = line.match(pattern);
      if (m) finish(() => resolve(m));
    };
    const onExit = (code: number | null, signal: string | null): void =>
      finish(() => reject(new Error(`${source.name} exited (${signal ?? code}) before it was ready:\n${tail()}`)));
    const timer = setTimeout(() => finish(() => reject(new Error(`${source.name} not ready within ${timeoutMs} ms:\n${tail()}`))), timeoutMs);
    const finish = (settle: () => void): void => {
      clearTimeout(timer);
      source.off('line', onLine);
      source.off('exit', onExit);
      settle();
    };
    source.on('line', onLine);
    source.once('exit', onExit);
    if (includePast) for (const l of [...source.recentLines]) onLine(l);
  });
}
