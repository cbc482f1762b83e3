// The shape every interface catalogue has: English's keys, each a string or plural forms.
import type { en } from './en.ts';

/** Forms by Intl.PluralRules category; `other` is always there (Japanese and Chinese need no more). */
export type Plural = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

export type MessageKey = keyof typeof en;

/** Same keys as English; a plural message stays plural (its forms are the language's). */
export type Catalogue = { readonly [K in MessageKey]: (typeof en)[K] extends string ? string : Plural };
