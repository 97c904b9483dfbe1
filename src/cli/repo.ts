import type Database from 'better-sqlite3';
import { findRoot } from '../repo/root.js';
import { headState } from '../repo/git.js';
import { openReader } from '../store/db.js';
import { freshnessOf, type Freshness } from '../store/freshness.js';

export interface OpenIndex {
  root: string;
  db: Database.Database;
  freshness: Freshness;
}

/** The index of the repository containing `dir`, opened for reading, with its freshness. */
export function openIndex(dir: string | undefined): OpenIndex {
  const root = findRoot(dir ?? process.cwd());
  const db = openReader(root);
  return { root, db, freshness: freshnessOf(db, headState(root)) };
}

export function freshnessLine(f: Freshness): string {
  const commit = f.indexedCommit ? f.indexedCommit.slice(0, 10) : 'no commit';
  const behind = f.behindHead && f.headCommit ? ` (HEAD is now ${f.headCommit.slice(0, 10)}: run \`cg index\`)` : '';
  return `index: ${commit}, generation ${f.generation}, built ${f.indexedAt}${behind}`;
}
