import type { Catalogue } from './catalogue.ts';
import { en } from './en.ts';

export const zh: Catalogue = { ...en };
