import type { GrantedMessage } from '../core/messageGrants';
import { grantKeys, isGranted } from '../src/security/messageGrants';
import type { ActivityDeps } from './deps';

/** The check of a message's grant (docs/security.md, "Messages to workflows"): workflow code cannot hold the key, so an activity does. */
export function grantActivities({ config }: ActivityDeps) {
  const keys = grantKeys(config);
  return {
    async verifyMessageGrant(message: GrantedMessage): Promise<boolean> {
      return isGranted(keys, message);
    },
  };
}
