import { withInstallationSecrets } from '../../secrets/installation';
import { Keyring } from '../../secrets/keyring';
import { checkStoredSecrets, resealStoredSecrets } from '../../secrets/stored';
import { commandAction, type RegisterCommand } from '../command';

/**
 * After a rotation (SECRETS_KEY the new key, SECRETS_KEY_PREVIOUS the old one): seals every stored
 * MFA and webhook signing secret under the new key, clear-text ones from before encryption too.
 * Once it has run, SECRETS_KEY_PREVIOUS can go (docs/security.md, "Rotating SECRETS_KEY").
 */
export const secretsReencrypt: RegisterCommand = (program) => {
  program
    .command('secrets:reencrypt')
    .description('seal every stored MFA and webhook signing secret under SECRETS_KEY (after a rotation; SECRETS_KEY_PREVIOUS opens the old ones)')
    .action(
      commandAction<object>(async (_opts, ctx) => {
        // The key `npm start` uses: configured, or the one generated into DATA_DIR.
        const config = withInstallationSecrets({ ...ctx.config, SERVICES: ['worker'] });
        const keyring = Keyring.fromText(config.SECRETS_KEY!, config.SECRETS_KEY_PREVIOUS);
        const counts = await ctx.withDb(async (db) => {
          await checkStoredSecrets(db, keyring);
          return resealStoredSecrets(db, keyring);
        });
        const result = { keyId: keyring.currentId, mfaSecrets: counts.mfa, webhookSecrets: counts.webhook };
        return { result, human: `sealed ${counts.mfa} MFA and ${counts.webhook} webhook signing secrets under key id ${keyring.currentId}` };
      }),
    );
};
