/** The operator's actions as plain functions over a Db: the CLI calls them, and so can tests and other code. */
export { createMerchant, findMerchant, merchantView, type MerchantView } from './merchants';
export { createUser, operatorRoles } from './users';
export { createApiKey, parseKeyMode, type CreatedApiKey } from './apiKeys';
export { findTerminal, linkTerminal, terminalOperatorView, unlinkTerminal, type TerminalOperatorView, type TerminalSelector } from './terminals';
