import countries from 'i18n-iso-countries';

/**
 * Country and time-zone rules (docs/stores-and-terminals.md, "Store"). Countries come from the maintained ISO 3166-1 list of
 * i18n-iso-countries; time zones from the IANA database that Node's ICU carries (no extra package).
 */

/** The upper-case alpha-2 code when `value` is a real ISO 3166-1 alpha-2 code (any case), else undefined. */
export function normalizeCountry(value: string): string | undefined {
  if (!/^[A-Za-z]{2}$/.test(value)) return undefined; // isValid also takes alpha-3 and numeric codes
  const code = value.toUpperCase();
  return countries.isValid(code) ? code : undefined;
}

/** Canonical spelling of every zone ICU lists, by lower case, so 'europe/berlin' is stored 'Europe/Berlin'. */
let canonicalZones: Map<string, string> | undefined;
function zoneSpelling(): Map<string, string> {
  if (!canonicalZones) {
    canonicalZones = new Map(Intl.supportedValuesOf('timeZone').map((z) => [z.toLowerCase(), z]));
    canonicalZones.set('utc', 'UTC'); // not listed by every ICU, but a valid IANA id
  }
  return canonicalZones;
}

/** A zone id shape: names only (Area/City, Etc/GMT+1, UTC), never a bare offset such as +01:00. */
const ZONE_ID = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/**
 * The IANA zone id to store when `value` is one ICU knows (canonical names and links such as
 * 'Asia/Calcutta' alike), else undefined. Listed zones are stored in their canonical spelling,
 * links as sent.
 */
export function normalizeTimeZone(value: string): string | undefined {
  if (!ZONE_ID.test(value) || value.length > 64) return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value }); // throws RangeError on an unknown zone
  } catch {
    return undefined;
  }
  return zoneSpelling().get(value.toLowerCase()) ?? value;
}
