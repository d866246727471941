/**
 * An email address as events and logs show it (docs/security.md, "Personal data"): the first
 * character of the local part and the domain, `j***@example.com`.
 */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 1) return '***';
  return `${[...address.slice(0, at)][0]}***${address.slice(at)}`;
}
