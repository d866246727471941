import { derivedUuid } from '../domain/derivedId';

/**
 * Whose dispute ids an acquirer's ids are: the payment's acquirer account, or the installation's
 * acquirer by name. (acquirerKey, acquirerDisputeId) is unique (migration 0020).
 */
export const acquirerKeyOf = (payment: { acquirerAccountId: string | null; acquirerName: string }): string =>
  payment.acquirerAccountId ?? `installation:${payment.acquirerName}`;

/** Our dispute id, derived from the acquirer's (src/domain/derivedId.ts): one dispute, one workflow `dispute-<id>`. */
export const disputeIdOf = (acquirerKey: string, acquirerDisputeId: string): string => derivedUuid('dispute', acquirerKey, acquirerDisputeId);
