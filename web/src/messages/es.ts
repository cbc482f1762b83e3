import type { Catalogue } from './catalogue.ts';
import { en } from './en.ts';

export const es: Catalogue = { ...en };
