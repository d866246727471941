/**
 * The time a Stripe-Signature header claims (`t=<unix seconds>,v1=...`). The official library's
 * constructEvent refuses a signature older than its tolerance but accepts one dated any time in
 * the future, so a signed event captured with a far-future `t` (a clock wrong at the sender, or a
 * leaked secret used to pre-sign events) would replay for ever: we refuse that side ourselves.
 */

/** The header's timestamp in unix seconds, read as the library reads it (the last `t=` wins); null without one. */
export function signatureTimestamp(header: string): number | null {
  let timestamp: number | null = null;
  for (const item of header.split(',')) {
    const [key, value] = item.split('=');
    if (key === 't') timestamp = parseInt(value ?? '', 10);
  }
  return timestamp === null || Number.isNaN(timestamp) ? null : timestamp;
}

/** True when the header is dated more than toleranceSeconds after now. */
export function signedInTheFuture(header: string, toleranceSeconds: number, nowMs = Date.now()): boolean {
  const timestamp = signatureTimestamp(header);
  return timestamp !== null && timestamp - Math.floor(nowMs / 1000) > toleranceSeconds;
}
