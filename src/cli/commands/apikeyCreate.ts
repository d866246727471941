import { Option } from 'commander';
import { createApiKey } from '../../operator/apiKeys';
import { commandAction, type RegisterCommand } from '../command';

export const apikeyCreate: RegisterCommand = (program) => {
  program
    .command('apikey:create')
    .description('issue an API key for a business; the key is shown once, only its hash is kept')
    .requiredOption('--merchant <externalId>', "the business's external id")
    .requiredOption('--name <name>', 'what the key is for, shown in key lists')
    .addOption(new Option('--mode <mode>', 'live keys reach the acquirer, test keys only the sandbox').choices(['live', 'test']).default('live'))
    .action(
      commandAction<{ merchant: string; name: string; mode: string }>(async (opts, ctx) => {
        const created = await ctx.withDb((db) => createApiKey(db, { merchantExternalId: opts.merchant, name: opts.name, mode: opts.mode }));
        return {
          result: created,
          human: `${created.mode} API key created (id ${created.id}). Copy it now, it is not shown again:\n${created.key}`,
        };
      }),
    );
};
