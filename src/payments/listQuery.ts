import { dateRange, PagingQuery } from '../domain/listQuery';
import { z } from '../domain/zod';
import { PAYMENT_STATUSES } from '../../core/payment/statuses';

/** The filters and paging of a payments list (docs/payments.md, "Reading payments"), shared by the API-key and dashboard lists. */
export const PaymentListQuery = PagingQuery.extend({
  ...dateRange(', ISO 8601 date or date-time'),
  status: z.enum(PAYMENT_STATUSES).optional(),
  acquirerName: z.string().min(1).optional(),
  q: z.string().min(1).max(200).optional().openapi({ description: 'matches reference, pspReference or id' }),
  storeExternalId: z.string().min(1).optional(),
  terminalExternalId: z.string().min(1).optional(),
});
