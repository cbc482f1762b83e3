// What a change set's page answers (store.ts from SQL, listing.ts from memory): apart from store.ts so
// that the listings in memory (listing.ts, encoded.ts) name them without importing the store.
import type { Level } from '../levels.ts';
import type { ChangeRecord, ChangeType } from './engine.ts';

export interface ChangeCounts {
  added: number;
  updated: number;
  retired: number;
}

export interface StoredChange {
  level: Level;
  code: number;
  changeType: ChangeType;
  term: string;
  details: string;
  previousTerm: string | null;
  metadata: ChangeRecord['metadata'];
}

export interface ChangePage {
  total: number;
  /** Counts per change type under every filter except changeType. */
  counts: ChangeCounts;
  items: StoredChange[];
}
