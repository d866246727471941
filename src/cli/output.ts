/**
 * What the operator CLI prints. With --json: exactly one JSON object on stdout on success, and
 * nothing on stdout on failure (the error goes to stderr, as `{"error": "..."}`). Without it: a
 * short text for people. Exit codes: 0 done, 1 refused or failed, 2 bad usage.
 */
import { ConfigError } from '../config';
import { DomainError, type DomainErrorKind } from '../domain/errors';

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** The one place a domain error kind becomes an exit code: bad input is bad usage, the rest a refusal. */
export const EXIT_CODE_OF_KIND: Record<DomainErrorKind, number> = {
  invalid: EXIT_USAGE,
  unauthenticated: EXIT_FAILED,
  forbidden: EXIT_FAILED,
  not_found: EXIT_FAILED,
  conflict: EXIT_FAILED,
  throttled: EXIT_FAILED,
  unavailable: EXIT_FAILED,
};

/** An error the CLI reports as one line, with its exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_FAILED,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve) => stream.write(text, () => resolve()));
}

/** Joins a multi-line message (Prisma's, for one) into one line. */
export function oneLine(text: string): string {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ')
    .slice(0, 1000);
}

export function printResult(result: unknown, human: string, json: boolean): Promise<void> {
  return write(process.stdout, json ? `${JSON.stringify(result, null, 2)}\n` : `${human}\n`);
}

export function printError(message: string, json: boolean): Promise<void> {
  const line = oneLine(message);
  return write(process.stderr, json ? `${JSON.stringify({ error: line })}\n` : `error: ${line}\n`);
}

/** The message and exit code of anything a command threw. */
export function describeError(err: unknown): { message: string; exitCode: number } {
  if (err instanceof CliError) return { message: err.message, exitCode: err.exitCode };
  if (err instanceof DomainError) return { message: err.message, exitCode: EXIT_CODE_OF_KIND[err.kind] };
  if (err instanceof ConfigError) return { message: `invalid configuration: ${err.problems.join('; ')}`, exitCode: EXIT_USAGE };
  const message = err instanceof Error ? err.message : String(err);
  return { message: message || 'unexpected error', exitCode: EXIT_FAILED };
}
