import type { Catalogue } from './catalogue.ts';
import { en } from './en.ts';

export const pt: Catalogue = { ...en };
