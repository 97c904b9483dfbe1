import type Database from 'better-sqlite3';
import { formatAge, plural } from './output.js';
import { findRoot } from '../repo/root.js';
import { readHead } from '../repo/head.js';
import { openReader } from '../store/db.js';
import { freshnessOf, type Freshness } from '../store/freshness.js';
import { pendingRecords } from '../changes/log.js';
import type { Recovery } from '../snapshot/recover.js';

export interface OpenIndex {
  root: string;
  db: Database.Database;
  /** With `restoredFrom` when the live index was missing or corrupt and a snapshot replaced it. */
  freshness: Freshness & { restoredFrom?: Recovery };
}

/**
 * The index of the repository containing `dir`, opened for reading, with its freshness. HEAD is read
 * from .git's files (git only when they are unusual): asking git took three processes for every
 * answer and for the closing line of every foreground `cg update`.
 */
export function openIndex(dir: string | undefined): OpenIndex {
  const root = findRoot(dir ?? process.cwd());
  const db = openReader(root);
  return { root, db, freshness: freshnessOf(db, readHead(root), (checkpoint) => pendingRecords(root, checkpoint)) };
}

/**
 * For the query commands: like openIndex, but a missing or corrupt index is first restored from the
 * newest snapshot of HEAD or an ancestor in the snapshot folder (and caught up), and the answer says so.
 */
export async function openIndexRecovering(dir: string | undefined): Promise<OpenIndex> {
  const root = findRoot(dir ?? process.cwd());
  try {
    return openIndex(root);
  } catch (err) {
    // Loaded only here: restoring pulls in the snapshot, extraction and vector code a healthy index never needs.
    const { recoverFromSnapshot } = await import('../snapshot/recover.js');
    const recovery = await recoverFromSnapshot(root, err);
    if (!recovery) throw err;
    const opened = openIndex(root);
    return { ...opened, freshness: { ...opened.freshness, restoredFrom: recovery } };
  }
}

export function freshnessLine(f: Freshness & { restoredFrom?: Recovery }): string {
  const commit = f.indexedCommit ? f.indexedCommit.slice(0, 10) : 'no commit';
  const behind = f.behindHead && f.headCommit ? `; HEAD is now ${f.headCommit.slice(0, 10)}` : '';
  const pending = f.pendingChanges ? `; ${plural(f.pendingChanges, 'change')} pending` : '';
  const hint = behind || pending ? ' (run `cg update`)' : '';
  const restored = f.restoredFrom
    ? `\nwarning: the index was restored from snapshot ${f.restoredFrom.snapshot} and caught up (${f.restoredFrom.catchUp}) because ${lowerFirst(f.restoredFrom.reason)}`
    : '';
  return `index: ${commit}, generation ${f.generation}, updated ${formatAge(f.ageSeconds)}${behind}${pending}${hint}${restored}`;
}

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}
