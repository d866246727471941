import type { AcquirerPort } from '../acquirer/port';
import { ACCOUNT_KEY_FIELDS, type Acquirers } from '../acquirer/acquirers';
import { resolverOf } from '../acquirer/resolver';
import { decide, INSTALLATION_RULE, type PaymentFacts, type Routes } from '../acquirerAccounts/decision';
import { routesFor } from '../acquirerAccounts/routes';
import type { ApiKeyPrincipal } from '../auth/principal';
import type { Db } from '../db/client';
import { conflict } from '../domain/errors';

/**
 * The acquirer a new payment goes to (docs/acquirers.md, "Routes and the decision"): its business's routes of the key's mode pick
 * an account, else the installation default. A test key's payments only ever reach test accounts,
 * a live key's only live ones: the routes are per mode, and the account's mode is checked again here.
 */
export interface ChosenRoute {
  acquirer: AcquirerPort;
  /** null: the installation default. */
  account: { id: string; name: string } | null;
  /** The matching rule's name, `default`, or `installation`. */
  rule: string;
}

export async function routePayment(
  deps: { db: Db; acquirers: Acquirers },
  principal: ApiKeyPrincipal,
  facts: PaymentFacts,
  /** The routes when the caller read them already (src/payments/createReads.ts), in the same moment as the terminal. */
  routes?: Routes | null,
): Promise<ChosenRoute> {
  const decision = decide(routes !== undefined ? routes : await routesFor(deps.db, principal.merchantId, principal.mode), facts);
  if (decision.accountId === null) return { acquirer: resolverOf(deps).choose(null, principal.mode), account: null, rule: INSTALLATION_RULE };
  const account = await deps.db.acquirerAccount.findFirst({
    where: { id: decision.accountId, merchantId: principal.merchantId },
    select: { ...ACCOUNT_KEY_FIELDS, name: true, mode: true, status: true, deletedAt: true },
  });
  // Saving routes and deactivating accounts keep these from happening; should one slip through, nothing is sent.
  if (!account || account.mode !== principal.mode || account.status !== 'ACTIVE' || account.deletedAt) {
    throw conflict(
      `the ${decision.rule} route names acquirer account ${decision.accountId}, which cannot take ${principal.mode} payments now; nothing was created`,
    );
  }
  return { acquirer: resolverOf(deps).choose(account, principal.mode), account: { id: account.id, name: account.name }, rule: decision.rule };
}
