/**
 * The frame every operator command shares: a command file registers itself on the commander
 * program and hands its work to `commandAction`, which loads the configuration, gives it the
 * database or Temporal on demand, prints the outcome and sets the exit code.
 */
import type { Client } from '@temporalio/client';
import type { Command } from 'commander';
import { loadConfig, type Config } from '../config';
import type { Db } from '../db/client';
import { withDatabase } from './database';
import { describeError, printError, printResult } from './output';

/** One command file's export: adds its command (options, description, action) to the program. */
export type RegisterCommand = (program: Command) => void;

export interface CommandContext {
  config: Config;
  /** The database of the service (see database.ts), held for the duration of fn. */
  withDb<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  /** A Temporal client on the service's cluster (see temporal.ts), held for the duration of fn. */
  withTemporal<T>(fn: (client: Client) => Promise<T>): Promise<T>;
}

/** What a command answers: the JSON object for --json, and a short text for people. */
export interface CommandOutcome {
  result: unknown;
  human: string;
}

export function commandAction<Options>(handler: (options: Options, ctx: CommandContext) => Promise<CommandOutcome>) {
  return async (options: Options, command: Command): Promise<void> => {
    const json = Boolean(command.optsWithGlobals<{ json?: boolean }>().json);
    try {
      const config = loadConfig();
      const ctx: CommandContext = {
        config,
        withDb: (fn) => withDatabase(config, (db) => fn(db)),
        withTemporal: async (fn) => (await import('./temporal')).withTemporalClient(config, fn),
      };
      const outcome = await handler(options, ctx);
      await printResult(outcome.result, outcome.human, json);
      process.exitCode = 0;
    } catch (err) {
      const { message, exitCode } = describeError(err);
      await printError(message, json);
      process.exitCode = exitCode;
    }
  };
}

/** A comma list option (`--roles ADMIN,FINANCE`) as its non-empty parts. */
export const commaList = (value: string): string[] =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
