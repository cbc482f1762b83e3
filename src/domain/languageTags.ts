// Language identity for multilingual releases: the MSSO language names written in
// `meddra_release.asc` (second field) ↔ BCP 47 tags, the file encoding each language's
// MedAscii folder uses, tag canonicalisation, and the choice of language for a request
// (`?lang=` > `Accept-Language` > the release's primary language).
// Pure: no I/O, no imports from other layers.
import Negotiator from 'negotiator';

/** How a MedAscii folder's bytes are decoded: 'latin1' means Windows-1252 ("extended ASCII"). */
export type MedAsciiEncoding = 'latin1' | 'utf8';

export interface MssoLanguage {
  /** The spelling this project writes into `meddra_release.asc`. */
  readonly name: string;
  /** Canonical BCP 47 tag. */
  readonly tag: string;
  /** English and Western European languages are "extended ASCII" (Windows-1252); all others UTF-8. */
  readonly encoding: MedAsciiEncoding;
  /** Other spellings seen in distributions and folder names (matched case-, space- and underscore-insensitively). */
  readonly aliases?: readonly string[];
}

const W = 'latin1' as const;
const U = 'utf8' as const;

/**
 * MedDRA's translations (about 28) plus the few extra names the importer already accepted.
 * The Western European set is the one `src/importer/medascii.ts` decoded as Windows-1252 before
 * this table existed: Central and Eastern European languages (Czech, Polish, Hungarian, …)
 * need characters outside Windows-1252, so MSSO ships them as UTF-8 like the non-Latin ones.
 */
export const MSSO_LANGUAGES: readonly MssoLanguage[] = [
  { name: 'English', tag: 'en', encoding: W },
  { name: 'Japanese', tag: 'ja', encoding: U },
  { name: 'German', tag: 'de', encoding: W },
  { name: 'French', tag: 'fr', encoding: W },
  { name: 'Spanish', tag: 'es', encoding: W },
  { name: 'Latin American Spanish', tag: 'es-419', encoding: W, aliases: ['Spanish Latin American'] },
  { name: 'Italian', tag: 'it', encoding: W },
  { name: 'Portuguese', tag: 'pt', encoding: W },
  {
    name: 'Portuguese_Brazilian',
    tag: 'pt-BR',
    encoding: W,
    aliases: ['Brazilian Portuguese', 'Portuguese Brazilian', 'Brazilian', 'Portuguese (Brazil)', 'Portuguese Brazil'],
  },
  { name: 'Dutch', tag: 'nl', encoding: W },
  { name: 'Danish', tag: 'da', encoding: W },
  { name: 'Swedish', tag: 'sv', encoding: W },
  { name: 'Norwegian', tag: 'no', encoding: W, aliases: ['Norwegian Bokmal', 'Norwegian Bokmål'] },
  { name: 'Finnish', tag: 'fi', encoding: W },
  { name: 'Icelandic', tag: 'is', encoding: W },
  { name: 'Czech', tag: 'cs', encoding: U },
  { name: 'Hungarian', tag: 'hu', encoding: U },
  { name: 'Polish', tag: 'pl', encoding: U },
  { name: 'Slovak', tag: 'sk', encoding: U },
  { name: 'Slovenian', tag: 'sl', encoding: U, aliases: ['Slovene'] },
  { name: 'Croatian', tag: 'hr', encoding: U },
  { name: 'Romanian', tag: 'ro', encoding: U },
  { name: 'Bulgarian', tag: 'bg', encoding: U },
  { name: 'Estonian', tag: 'et', encoding: U },
  { name: 'Latvian', tag: 'lv', encoding: U },
  { name: 'Lithuanian', tag: 'lt', encoding: U },
  { name: 'Greek', tag: 'el', encoding: U },
  { name: 'Russian', tag: 'ru', encoding: U },
  { name: 'Ukrainian', tag: 'uk', encoding: U },
  { name: 'Turkish', tag: 'tr', encoding: U },
  { name: 'Chinese', tag: 'zh', encoding: U, aliases: ['Chinese Simplified', 'Simplified Chinese'] },
  { name: 'Korean', tag: 'ko', encoding: U },
  { name: 'Arabic', tag: 'ar', encoding: U },
  { name: 'Persian', tag: 'fa', encoding: U, aliases: ['Farsi'] },
];

/** "Portuguese_Brazilian", "brazilian-portuguese " → "portuguese brazilian"-style key (word order kept). */
const nameKey = (name: string): string =>
  name
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[\s_\-()]+/g, ' ')
    .trim();

const BY_NAME = new Map<string, MssoLanguage>();
const BY_TAG = new Map<string, MssoLanguage>();
for (const l of MSSO_LANGUAGES) {
  for (const n of [l.name, ...(l.aliases ?? [])]) BY_NAME.set(nameKey(n), l);
  BY_TAG.set(l.tag.toLowerCase(), l);
}

/** The MSSO language of a `meddra_release.asc` language field (any case, spaces or underscores), or undefined. */
export function mssoLanguage(name: string): MssoLanguage | undefined {
  return BY_NAME.get(nameKey(name.slice(0, 100)));
}

/** BCP 47 tag of an MSSO language name ("Japanese" → "ja", "Portuguese_Brazilian" → "pt-BR"), or undefined. */
export function tagForMssoLanguage(name: string): string | undefined {
  return mssoLanguage(name)?.tag;
}

/** The MSSO spelling for a tag ("de" → "German"), or undefined when MedDRA has no such translation here. */
export function mssoNameForTag(tag: string): string | undefined {
  const canonical = tryCanonicalLanguageTag(tag);
  return canonical === undefined ? undefined : BY_TAG.get(canonical.toLowerCase())?.name;
}

/**
 * How a MedAscii folder in this language is decoded. Takes the MSSO name from
 * `meddra_release.asc` or a BCP 47 tag (the `--language` override). Western European
 * languages are Windows-1252 ('latin1'); anything else, known or not, is UTF-8.
 */
export function medAsciiEncoding(languageNameOrTag: string): MedAsciiEncoding {
  const byName = mssoLanguage(languageNameOrTag);
  if (byName) return byName.encoding;
  const tag = tryCanonicalLanguageTag(languageNameOrTag);
  if (tag === undefined) return 'utf8';
  const exact = BY_TAG.get(tag.toLowerCase());
  if (exact) return exact.encoding;
  // A regional variant of a known language (de-AT, fr-CA) is written like its language.
  const base = BY_TAG.get(tag.split('-')[0]!.toLowerCase());
  return base?.encoding ?? 'utf8';
}

// ---------------------------------------------------------------- tags

/** Longest tag accepted: real tags are far shorter; this bounds the work on hostile input. */
export const MAX_TAG_LENGTH = 64;

export type TagParse = { ok: true; tag: string } | { ok: false; message: string };

/** Canonical BCP 47 form ("PT-br" → "pt-BR", "iw" → "he"), or why the input is not a language tag. */
export function parseLanguageTag(input: string): TagParse {
  const raw = input.trim();
  const shown = JSON.stringify(raw.length > MAX_TAG_LENGTH ? `${raw.slice(0, MAX_TAG_LENGTH)}…` : raw);
  if (raw === '') return { ok: false, message: 'a language tag is required (BCP 47, e.g. "en", "ja", "pt-BR")' };
  if (raw.length > MAX_TAG_LENGTH) {
    return { ok: false, message: `${shown} is not a language tag: longer than ${MAX_TAG_LENGTH} characters` };
  }
  try {
    const [tag] = Intl.getCanonicalLocales(raw);
    if (tag) return { ok: true, tag };
  } catch {
    // RangeError: malformed — reported below.
  }
  const hint = /^[a-z]{2,3}_[a-z0-9]{2,8}$/i.test(raw) ? ` (BCP 47 separates subtags with "-": "${raw.replace('_', '-')}")` : '';
  return { ok: false, message: `${shown} is not a well-formed BCP 47 language tag${hint}` };
}

export class LanguageTagError extends Error {}

/** Canonical BCP 47 form; throws LanguageTagError with a clear message on a malformed tag. */
export function canonicalLanguageTag(input: string): string {
  const r = parseLanguageTag(input);
  if (!r.ok) throw new LanguageTagError(r.message);
  return r.tag;
}

export function tryCanonicalLanguageTag(input: string): string | undefined {
  const r = parseLanguageTag(input);
  return r.ok ? r.tag : undefined;
}

/** The language's English name for messages ("ja" → "Japanese", "pt-BR" → "Brazilian Portuguese"). */
export function languageDisplayName(tag: string, inLanguage = 'en'): string {
  try {
    return new Intl.DisplayNames([inLanguage], { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

/** Same language tag, ignoring case ("pt-br" and "pt-BR"). */
export const sameTag = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

// ---------------------------------------------------------------- negotiation

/** Bound on the Accept-Language value parsed (real headers are a few dozen characters). */
export const MAX_ACCEPT_LANGUAGE_LENGTH = 1024;

/**
 * The hosted language an `Accept-Language` header prefers, else `primary`.
 * q-values and `*` as RFC 9110; `q=0` excludes; a range matches a hosted tag exactly, by
 * the range's language (`ja-JP` → `ja`, `pt-BR` → `pt` when `pt-BR` is absent), or a hosted
 * regional tag by its language (`pt` → `pt-BR` only when `pt` itself is not hosted).
 * Among equals, the header's order wins, then the order of `hosted` (primary first).
 * Parsing is the `negotiator` package's (as used by Express).
 */
export function negotiateLanguage(
  acceptLanguage: string | readonly string[] | null | undefined,
  hosted: readonly string[],
  primary: string,
): string {
  const header = headerValue(acceptLanguage);
  if (header === undefined || hosted.length === 0) return primary;
  return preferred(header, ordered(hosted, primary)) ?? primary;
}

function headerValue(v: string | readonly string[] | null | undefined): string | undefined {
  const joined = Array.isArray(v) ? v.join(',') : (v as string | null | undefined);
  if (joined == null) return undefined;
  // Cut at a list boundary so a truncated value never yields a made-up range.
  const s = (
    joined.length > MAX_ACCEPT_LANGUAGE_LENGTH
      ? joined.slice(0, Math.max(0, joined.lastIndexOf(',', MAX_ACCEPT_LANGUAGE_LENGTH)))
      : joined
  ).trim();
  return s === '' ? undefined : s;
}

const preferred = (header: string, hosted: string[]): string | undefined =>
  new Negotiator({ headers: { 'accept-language': header } }).languages(hosted)[0];

// ---------------------------------------------------------------- selection

export type LanguageSource = 'query' | 'header' | 'primary';

export type LanguageSelection =
  /** One language; `source` tells which rule chose it. */
  | { kind: 'one'; language: string; source: LanguageSource }
  /** `?lang=*`: every hosted language, primary first. */
  | { kind: 'all'; languages: string[]; source: 'query' }
  /** `?lang=` names a well-formed language the release does not host: 404 LANGUAGE_NOT_FOUND. */
  | { kind: 'not-hosted'; requested: string; hosted: string[] }
  /** `?lang=` is not a BCP 47 tag: 400 VALIDATION_ERROR with `message`. */
  | { kind: 'invalid'; requested: string; message: string };

/**
 * Which language a request gets: a query (`?lang=`, GraphQL `language:`, FHIR
 * `displayLanguage`) names it exactly — a hosted tag after canonicalisation, or `*` for
 * all; else the best `Accept-Language` match; else the release's primary language.
 * A query is not prefix-matched: asking for `ja-JP` where only `ja` is hosted is
 * "not hosted", with the hosted list to say what is (the header is the lenient way).
 * `hosted` is the release's list, primary first.
 */
export function selectLanguage(
  request: { query?: string | null; header?: string | readonly string[] | null },
  hosted: readonly string[],
  primary: string,
): LanguageSelection {
  const q = request.query?.trim();
  if (q !== undefined && q !== '') {
    if (q === '*') return { kind: 'all', languages: ordered(hosted, primary), source: 'query' };
    const parsed = parseLanguageTag(q);
    if (!parsed.ok) return { kind: 'invalid', requested: q.slice(0, MAX_TAG_LENGTH), message: parsed.message };
    const hit = hosted.find((h) => sameTag(h, parsed.tag));
    if (hit === undefined) return { kind: 'not-hosted', requested: parsed.tag, hosted: ordered(hosted, primary) };
    return { kind: 'one', language: hit, source: 'query' };
  }
  const header = headerValue(request.header);
  if (header !== undefined) {
    const chosen = preferred(header, ordered(hosted, primary));
    if (chosen !== undefined) return { kind: 'one', language: chosen, source: 'header' };
  }
  return { kind: 'one', language: primary, source: 'primary' };
}

/** The hosted list with the primary first (the order `*` and ties resolve in). */
function ordered(hosted: readonly string[], primary: string): string[] {
  const rest = hosted.filter((h) => !sameTag(h, primary));
  return hosted.some((h) => sameTag(h, primary)) ? [hosted.find((h) => sameTag(h, primary))!, ...rest] : [...rest];
}
