import { PagingQuery } from '../domain/paging';
import { z } from '../domain/zod';
import { PAYMENT_STATUSES } from '../../core/payment/statuses';

/** ISO 8601 date (midnight UTC) or date-time with an offset. */
export const instant = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })], { message: 'must be an ISO 8601 date or date-time' })
  .transform((v) => new Date(v.length === 10 ? `${v}T00:00:00Z` : v));

/** The filters and paging of a payments list (contracts 2), shared by the API-key and dashboard lists. */
export const PaymentListQuery = PagingQuery.extend({
  from: instant.optional().openapi({ description: 'inclusive, ISO 8601 date or date-time' }),
  to: instant.optional().openapi({ description: 'exclusive, ISO 8601 date or date-time' }),
  status: z.enum(PAYMENT_STATUSES).optional(),
  acquirerName: z.string().min(1).optional(),
  q: z.string().min(1).max(200).optional().openapi({ description: 'matches reference, pspReference or id' }),
  storeExternalId: z.string().min(1).optional(),
  terminalExternalId: z.string().min(1).optional(),
});
