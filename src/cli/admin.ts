/**
 * The operator command line (docs/operator-cli.md):
 *   npm run --silent admin -- <command> [options] [--json]
 * Same environment variables, database and Temporal as `npm start`; works while the service runs.
 * Commands live one per file in ./commands and are listed in ./commands/index.ts.
 */
import { Command, CommanderError } from 'commander';
import { commands } from './commands';
import { EXIT_OK, EXIT_USAGE, oneLine } from './output';

function buildProgram(json: boolean): Command {
  const program = new Command()
    .name('admin')
    .description('operator commands of the in-store payments service')
    .option('--json', 'print exactly one JSON object on stdout (errors go to stderr)')
    .showSuggestionAfterError()
    .configureHelp({ showGlobalOptions: true })
    .exitOverride()
    .configureOutput({
      // Usage errors: one line on stderr, as JSON with --json; stdout stays empty.
      outputError: (str, write) => {
        const message = oneLine(str).replace(/^error: /, '');
        write(json ? `${JSON.stringify({ error: message })}\n` : `error: ${message}\n`);
      },
    });
  // Subcommands inherit the settings above, so each reports usage errors the same way.
  for (const register of commands) register(program);
  return program;
}

async function main(argv: string[]): Promise<number> {
  const program = buildProgram(argv.includes('--json'));
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      const shownOnPurpose = err.code === 'commander.helpDisplayed' || err.code === 'commander.version';
      return shownOnPurpose ? EXIT_OK : EXIT_USAGE;
    }
    throw err;
  }
  return typeof process.exitCode === 'number' ? process.exitCode : EXIT_OK;
}

main(process.argv).then(
  // Exit explicitly: a driver pool or connection left open must not keep the command hanging.
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
