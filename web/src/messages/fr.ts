import type { Catalogue } from './catalogue.ts';
import { en } from './en.ts';

export const fr: Catalogue = { ...en };
