import { z } from '../domain/zod';

/**
 * The one rule for a money amount in a request body (payment creation, two-step capture, refund),
 * so every operation refuses the same values the same way: a JSON number greater than 0 and at
 * most MAX_AMOUNT, else 400 naming the field. The bound matters beyond taste: without it a refund
 * of 1e308 passed validation and was refused later as "more than refundable" (409), and numbers
 * past 2^53 are no longer exact. Decimals are checked against the currency where it is known.
 */

/** Largest amount accepted: 12 integer digits keep every amount exact in a JSON number. */
export const MAX_AMOUNT = 999_999_999_999;

export const amountSchema = () => z.number({ error: 'must be a number' }).positive('must be greater than 0').max(MAX_AMOUNT, `must be at most ${MAX_AMOUNT}`);
