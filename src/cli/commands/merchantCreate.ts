import { createMerchant } from '../../operator/merchants';
import { commandAction, type RegisterCommand } from '../command';

export const merchantCreate: RegisterCommand = (program) => {
  program
    .command('merchant:create')
    .description('register a business; prints the merchant')
    .requiredOption('--external-id <id>', "the business identifier used in every API path (letters, digits, '.', '_', '-')")
    .requiredOption('--name <name>', 'the business name')
    .action(
      commandAction<{ externalId: string; name: string }>(async (opts, ctx) => {
        const merchant = await ctx.withDb((db) => createMerchant(db, { externalId: opts.externalId, name: opts.name }));
        return { result: merchant, human: `merchant '${merchant.externalId}' (${merchant.name}) created, id ${merchant.id}` };
      }),
    );
};
