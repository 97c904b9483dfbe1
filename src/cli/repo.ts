import type Database from 'better-sqlite3';
import { formatAge } from './output.js';
import { findRoot } from '../repo/root.js';
import { headState } from '../repo/git.js';
import { openReader } from '../store/db.js';
import { freshnessOf, type Freshness } from '../store/freshness.js';
import { pendingRecords } from '../changes/log.js';

export interface OpenIndex {
  root: string;
  db: Database.Database;
  freshness: Freshness;
}

/** The index of the repository containing `dir`, opened for reading, with its freshness. */
export function openIndex(dir: string | undefined): OpenIndex {
  const root = findRoot(dir ?? process.cwd());
  const db = openReader(root);
  return { root, db, freshness: freshnessOf(db, headState(root), (checkpoint) => pendingRecords(root, checkpoint)) };
}

export function freshnessLine(f: Freshness): string {
  const commit = f.indexedCommit ? f.indexedCommit.slice(0, 10) : 'no commit';
  const behind = f.behindHead && f.headCommit ? `; HEAD is now ${f.headCommit.slice(0, 10)}` : '';
  const pending = f.pendingChanges ? `; ${f.pendingChanges} change(s) pending` : '';
  const hint = behind || pending ? ' (run `cg update`)' : '';
  return `index: ${commit}, generation ${f.generation}, updated ${formatAge(f.ageSeconds)}${behind}${pending}${hint}`;
}
