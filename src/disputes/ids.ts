import { derivedUuid } from '../domain/derivedId';

/** Our dispute id, derived from the acquirer's (src/domain/derivedId.ts): one dispute, one workflow `dispute-<id>`. */
export const disputeIdOf = (acquirerKey: string, acquirerDisputeId: string): string => derivedUuid('dispute', acquirerKey, acquirerDisputeId);
