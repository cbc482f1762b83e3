// The interface's own words in the user's language (the terminology's names follow `lang=`,
// language.ts; these follow `ui=`). A tiny typed catalogue over Intl rather than a library:
// messages are plain strings with {placeholders} and, where a count decides the wording,
// Intl.PluralRules categories; numbers and dates go through Intl.NumberFormat/DateTimeFormat.
// Every catalogue is checked against English by tsc (same keys) and by test/web/catalogues.test.ts
// (same placeholders).
import type { ComponentChildren } from 'preact';
import { en } from './messages/en.ts';
import type { Catalogue, MessageKey, Plural } from './messages/catalogue.ts';

/**
 * The interface languages (BCP 47), English (the source) first, each by its own name for the
 * selector. English is in the bundle; every other catalogue is a chunk of its own (~6 KB
 * gzipped), fetched from the same origin when that language is first wanted.
 */
export const UI_LANGUAGE_NAMES: Record<string, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  it: 'Italiano',
  'pt-BR': 'Português (Brasil)',
  ja: '日本語',
  'zh-Hans': '简体中文',
};
export const UI_LANGUAGES = Object.keys(UI_LANGUAGE_NAMES);

const LOADERS: Record<string, () => Promise<Catalogue>> = {
  en: async () => en,
  de: async () => (await import('./messages/de.ts')).de,
  fr: async () => (await import('./messages/fr.ts')).fr,
  es: async () => (await import('./messages/es.ts')).es,
  it: async () => (await import('./messages/it.ts')).it,
  'pt-BR': async () => (await import('./messages/pt.ts')).pt,
  ja: async () => (await import('./messages/ja.ts')).ja,
  'zh-Hans': async () => (await import('./messages/zh.ts')).zh,
};
const loaded = new Map<string, Catalogue>([['en', en]]);
const loading = new Map<string, Promise<void>>();

/** Fetches a language's catalogue once (a rejected fetch may be tried again). */
export function loadCatalogue(tag: string): Promise<void> {
  if (loaded.has(tag) || !LOADERS[tag]) return Promise.resolve();
  let p = loading.get(tag);
  if (!p) {
    p = LOADERS[tag]!().then(
      (c) => void loaded.set(tag, c),
      (e: unknown) => {
        loading.delete(tag);
        throw e;
      },
    );
    loading.set(tag, p);
  }
  return p;
}

let current = 'en';
let messages: Catalogue = en;

/** The interface language in effect (set by the shell while rendering, before the views run). */
export function uiLanguage(): string {
  return current;
}

/** Puts `tag` in effect if its catalogue is loaded; false (the language unchanged) otherwise. */
export function setUiLanguage(tag: string): boolean {
  const cat = loaded.get(tag);
  if (!cat) return false;
  if (tag === current) return true;
  current = tag;
  messages = cat;
  numbers = new Intl.NumberFormat(tag);
  plurals = new Intl.PluralRules(tag);
  return true;
}

let numbers = new Intl.NumberFormat('en');
let plurals = new Intl.PluralRules('en');

export function formatNumber(n: number): string {
  return numbers.format(n);
}

/** A release date (ISO `YYYY-MM-DD`, a calendar day: no time zone applies) in the interface's style. */
export function formatDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return iso;
  return new Intl.DateTimeFormat(current, { dateStyle: 'medium', timeZone: 'UTC' }).format(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!));
}

type Params = Record<string, string | number>;

function pick(key: MessageKey, params?: Params): string {
  const msg: string | Plural = messages[key] ?? en[key];
  if (typeof msg === 'string') return msg;
  const count = Number(params?.count ?? 0);
  return msg[plurals.select(count)] ?? msg.other;
}

/** The message `key` with its {placeholders} filled; numbers are formatted for the language. */
export function t(key: MessageKey, params?: Params): string {
  const msg = pick(key, params);
  if (!params) return msg;
  return msg.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const v = params[name];
    return v === undefined ? whole : typeof v === 'number' ? formatNumber(v) : v;
  });
}

/**
 * The message `key` as children, for messages that hold elements (a link, <code>): each
 * placeholder is replaced by its node, so the translation decides where the element goes.
 */
export function tx(key: MessageKey, params: Record<string, ComponentChildren>): ComponentChildren[] {
  const count = params.count;
  const msg = pick(key, typeof count === 'number' ? { count } : undefined);
  const out: ComponentChildren[] = [];
  let at = 0;
  for (const m of msg.matchAll(/\{(\w+)\}/g)) {
    if (m.index! > at) out.push(msg.slice(at, m.index));
    const v = params[m[1]!];
    out.push(typeof v === 'number' ? formatNumber(v) : v);
    at = m.index! + m[0].length;
  }
  if (at < msg.length) out.push(msg.slice(at));
  return out;
}

/** A size in megabytes with one decimal, in the interface's number style. */
export function megabytes(bytes: number): string {
  return new Intl.NumberFormat(current, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(bytes / 1024 / 1024);
}
