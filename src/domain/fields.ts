import { z } from './zod';
import { isSupportedCurrency, SUPPORTED_CURRENCY_CODES } from '../money/currencies';

/** Fields several requests share: one rule and the same words in every 400 that names them. */

/** A required string of 1 to `max` characters. */
export const requiredText = (max: number) => z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

const currencyMessage = `must be one of the supported currencies ${SUPPORTED_CURRENCY_CODES.join(', ')}`;

/** An ISO 4217 code of a supported currency, any case on input (callers transform or describe it). */
export const currencyCode = () => z.string({ error: currencyMessage }).refine((v) => isSupportedCurrency(v.toUpperCase()), currencyMessage);
