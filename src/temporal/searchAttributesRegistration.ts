import type { Connection } from '@temporalio/client';
import type { NativeConnection } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import { PAYMENT_SEARCH_ATTRIBUTES } from '../../core/searchAttributes';

/**
 * Registers the payment search attributes on an external Temporal cluster (the dev server gets
 * them on its command line). Safe to call on every start.
 */
export async function ensureSearchAttributes(connection: Pick<Connection | NativeConnection, 'operatorService'>, namespace: string): Promise<void> {
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const missing = PAYMENT_SEARCH_ATTRIBUTES.filter((a) => !(a.name in (existing.customAttributes ?? {})));
  if (missing.length === 0) return;
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(missing.map((a) => [a.name, temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD])),
  });
}
