/**
 * Mixed scripts in a name (./names.ts: usernames, acquirer account names): "аdmin" with a Cyrillic
 * а looks exactly like "admin" and would let someone pass for an administrator in the user list,
 * the audit log or a sign-in prompt, "Strіpe DE" with a Ukrainian і for another account. A name's
 * letters must therefore come from one script (Unicode Script property, read with
 * `\p{Script=…}` regular expressions, so no data of our own), except the combinations a language
 * writes with, as in Unicode's "Highly Restrictive" level (UTS #39 5.2): Latin with Han, Hiragana
 * and Katakana (Japanese), with Han and Bopomofo (Chinese), with Han and Hangul (Korean). Common
 * and Inherited characters (digits, punctuation, combining marks) belong to every script.
 */

/** Every script the runtime knows by name, the usual ones first so the search ends early. */
const SCRIPT_NAMES = [
  'Latin',
  'Cyrillic',
  'Greek',
  'Han',
  'Hiragana',
  'Katakana',
  'Hangul',
  'Arabic',
  'Hebrew',
  'Devanagari',
  'Thai',
  'Armenian',
  'Georgian',
  'Bopomofo',
  'Adlam',
  'Ahom',
  'Anatolian_Hieroglyphs',
  'Avestan',
  'Balinese',
  'Bamum',
  'Bassa_Vah',
  'Batak',
  'Bengali',
  'Beria_Erfe',
  'Bhaiksuki',
  'Brahmi',
  'Braille',
  'Buginese',
  'Buhid',
  'Canadian_Aboriginal',
  'Carian',
  'Caucasian_Albanian',
  'Chakma',
  'Cham',
  'Cherokee',
  'Chorasmian',
  'Coptic',
  'Cuneiform',
  'Cypriot',
  'Cypro_Minoan',
  'Deseret',
  'Dives_Akuru',
  'Dogra',
  'Duployan',
  'Egyptian_Hieroglyphs',
  'Elbasan',
  'Elymaic',
  'Ethiopic',
  'Garay',
  'Glagolitic',
  'Gothic',
  'Grantha',
  'Gujarati',
  'Gunjala_Gondi',
  'Gurmukhi',
  'Gurung_Khema',
  'Hanifi_Rohingya',
  'Hanunoo',
  'Hatran',
  'Imperial_Aramaic',
  'Inscriptional_Pahlavi',
  'Inscriptional_Parthian',
  'Javanese',
  'Kaithi',
  'Kannada',
  'Kawi',
  'Kayah_Li',
  'Kharoshthi',
  'Khitan_Small_Script',
  'Khmer',
  'Khojki',
  'Khudawadi',
  'Kirat_Rai',
  'Lao',
  'Lepcha',
  'Limbu',
  'Linear_A',
  'Linear_B',
  'Lisu',
  'Lycian',
  'Lydian',
  'Mahajani',
  'Makasar',
  'Malayalam',
  'Mandaic',
  'Manichaean',
  'Marchen',
  'Masaram_Gondi',
  'Medefaidrin',
  'Meetei_Mayek',
  'Mende_Kikakui',
  'Meroitic_Cursive',
  'Meroitic_Hieroglyphs',
  'Miao',
  'Modi',
  'Mongolian',
  'Mro',
  'Multani',
  'Myanmar',
  'Nabataean',
  'Nag_Mundari',
  'Nandinagari',
  'New_Tai_Lue',
  'Newa',
  'Nko',
  'Nushu',
  'Nyiakeng_Puachue_Hmong',
  'Ogham',
  'Ol_Chiki',
  'Ol_Onal',
  'Old_Hungarian',
  'Old_Italic',
  'Old_North_Arabian',
  'Old_Permic',
  'Old_Persian',
  'Old_Sogdian',
  'Old_South_Arabian',
  'Old_Turkic',
  'Old_Uyghur',
  'Oriya',
  'Osage',
  'Osmanya',
  'Pahawh_Hmong',
  'Palmyrene',
  'Pau_Cin_Hau',
  'Phags_Pa',
  'Phoenician',
  'Psalter_Pahlavi',
  'Rejang',
  'Runic',
  'Samaritan',
  'Saurashtra',
  'Sharada',
  'Shavian',
  'Siddham',
  'Sidetic',
  'SignWriting',
  'Sinhala',
  'Sogdian',
  'Sora_Sompeng',
  'Soyombo',
  'Sundanese',
  'Sunuwar',
  'Syloti_Nagri',
  'Syriac',
  'Tagalog',
  'Tagbanwa',
  'Tai_Le',
  'Tai_Tham',
  'Tai_Viet',
  'Tai_Yo',
  'Takri',
  'Tamil',
  'Tangsa',
  'Tangut',
  'Telugu',
  'Thaana',
  'Tibetan',
  'Tifinagh',
  'Tirhuta',
  'Todhri',
  'Tolong_Siki',
  'Toto',
  'Tulu_Tigalari',
  'Ugaritic',
  'Unknown',
  'Vai',
  'Vithkuqi',
  'Wancho',
  'Warang_Citi',
  'Yezidi',
  'Yi',
  'Zanabazar_Square',
];

// A name the runtime's Unicode tables do not know (an older Node) is left out, not a crash.
const SCRIPTS: { name: string; pattern: RegExp }[] = SCRIPT_NAMES.flatMap((name) => {
  try {
    return [{ name: name.replace(/_/g, ' '), pattern: new RegExp(`^\\p{Script=${name}}$`, 'u') }];
  } catch {
    return [];
  }
});

const SHARED = /^[\p{Script=Common}\p{Script=Inherited}]$/u;

/** Script sets a language writes with (UTS #39 "Highly Restrictive"). */
const ALLOWED_MIXES: ReadonlySet<string>[] = [
  new Set(['Latin', 'Han', 'Hiragana', 'Katakana']),
  new Set(['Latin', 'Han', 'Bopomofo']),
  new Set(['Latin', 'Han', 'Hangul']),
];

/** The scripts of a text's characters, in order of first appearance; Common and Inherited left out. */
export function scriptsOf(text: string): string[] {
  const found: string[] = [];
  for (const ch of text) {
    if (SHARED.test(ch)) continue;
    const script = SCRIPTS.find((s) => s.pattern.test(ch))?.name ?? 'Unknown';
    if (!found.includes(script)) found.push(script);
  }
  return found;
}

/** Why a text mixes scripts no language mixes ("Latin with Cyrillic"), or null when it does not. */
export function mixedScripts(text: string): string | null {
  const scripts = scriptsOf(text);
  if (scripts.length <= 1) return null;
  if (ALLOWED_MIXES.some((mix) => scripts.every((s) => mix.has(s)))) return null;
  return `${scripts.slice(0, -1).join(', ')} with ${scripts[scripts.length - 1]}`;
}
