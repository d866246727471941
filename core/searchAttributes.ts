import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * Custom search attributes on every payment workflow, so operators find a payment in the Web UI
 * by merchant, store, terminal, reference, pspReference or status.
 */
export const MerchantExternalId = defineSearchAttributeKey('MerchantExternalId', SearchAttributeType.KEYWORD);
export const StoreExternalId = defineSearchAttributeKey('StoreExternalId', SearchAttributeType.KEYWORD);
export const TerminalExternalId = defineSearchAttributeKey('TerminalExternalId', SearchAttributeType.KEYWORD);
export const PaymentReference = defineSearchAttributeKey('PaymentReference', SearchAttributeType.KEYWORD);
export const PspReference = defineSearchAttributeKey('PspReference', SearchAttributeType.KEYWORD);
export const PaymentStatus = defineSearchAttributeKey('PaymentStatus', SearchAttributeType.KEYWORD);

export const PAYMENT_SEARCH_ATTRIBUTES = [MerchantExternalId, StoreExternalId, TerminalExternalId, PaymentReference, PspReference, PaymentStatus];
