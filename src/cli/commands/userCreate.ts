import { createUser } from '../../operator/users';
import { commandAction, commaList, type RegisterCommand } from '../command';

/** `--password -` reads the password from standard input, so it stays out of the shell history. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

export const userCreate: RegisterCommand = (program) => {
  program
    .command('user:create')
    .description('create a dashboard user of a business (its first administrator, say); prints the user')
    .requiredOption('--merchant <externalId>', "the business's external id")
    .requiredOption('--username <username>', 'sign-in name, unique whatever its case')
    .requiredOption('--password <password>', "at least 12 characters with letters and digits; '-' reads it from stdin")
    .option('--roles <roles>', 'comma list of ADMIN, FINANCE, OPERATIONS, COMPLIANCE, USER (ROLE_ prefix optional)', commaList, ['USER'])
    .action(
      commandAction<{ merchant: string; username: string; password: string; roles: string[] }>(async (opts, ctx) => {
        const password = opts.password === '-' ? await readStdin() : opts.password;
        const user = await ctx.withDb((db) => createUser(db, { merchantExternalId: opts.merchant, username: opts.username, password, roles: opts.roles }));
        return {
          result: user,
          human: `user '${user.username}' (id ${user.id}) created for merchant '${user.merchantExternalId}' with roles ${user.roles.join(', ')}`,
        };
      }),
    );
};
