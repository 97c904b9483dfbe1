import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { CgError, errorMessage, nativeModuleError } from '../errors.js';
import { PACKAGE_ROOT } from '../paths.js';
import { cgDir } from '../store/db.js';

export interface WriterLock {
  release(): void;
}

/** The lock itself: an SQLite database whose write lock the holder keeps. It is never deleted (see below). */
export const LOCK_DB = 'writer.lock.db';
/**
 * Who holds the lock, for people and for the git hooks (which start no applier while its pid lives).
 * It is a note, not the lock: a note left by a killed process decides nothing.
 */
export const LOCK_NOTE = 'writer.lock';

/**
 * One writer at a time per repository, whatever happens to the holder: the lock on
 * `.codegraph/writer.lock.db` (see acquireLock), its note in `.codegraph/writer.lock`.
 */
export function acquireWriterLock(root: string): WriterLock {
  const dir = cgDir(root);
  const file = path.join(dir, LOCK_DB);
  return acquireLock(file, path.join(dir, LOCK_NOTE), (pid) => new CgError('index_busy',
    `Another cg process${pid !== null ? ` (pid ${pid})` : ''} is writing the index of ${root}`,
    `Wait for it to finish, or stop it; the lock (${file}) is released when that process ends, however it ends.`));
}

/**
 * One holder at a time, whatever happens to the holder. The lock is SQLite's own write lock
 * (`BEGIN IMMEDIATE`) on `file`, held by an open connection until release: it is a POSIX advisory
 * lock, which the operating system drops when the holding process exits or is killed, so a crash can
 * never leave it held, and there is nothing stale to take over. (A lock file naming its owner, taken
 * over when that process is gone, lets two processes that find the same stale file both take it; cg's
 * earlier writer lock did.) The file is never removed: a process that opened it before a removal would
 * hold a lock on a file nobody else can see. `note` names the holder (pid, host, since) for people and
 * for `busy`, which explains a live holder (its pid when the note says).
 */
export function acquireLock(file: string, note: string, busy: (pid: number | null) => CgError): WriterLock {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let db: Database.Database;
  try {
    db = new Database(file, { timeout: 0 });
  } catch (err) {
    // An install whose SQLite binding was never built fails here first: say so, as opening the index would.
    throw nativeModuleError(err, PACKAGE_ROOT)
      ?? new CgError('io', `Cannot open the lock ${file}: ${errorMessage(err)}`, `Check that ${path.dirname(file)} is writable.`);
  }
  try {
    db.exec('BEGIN IMMEDIATE');
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code !== 'SQLITE_BUSY') {
      throw new CgError('io', `Cannot take the lock ${file}: ${errorMessage(err)}`, `Check that ${path.dirname(file)} is writable.`);
    }
    throw busy(readOwner(note)?.pid ?? null);
  }
  try {
    fs.writeFileSync(note, JSON.stringify({ pid: process.pid, host: os.hostname(), since: new Date().toISOString() }));
  } catch {
    /* the note is informational; the lock is held */
  }
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      // The note goes first, while the lock still excludes the next holder (who writes its own).
      fs.rmSync(note, { force: true });
      try {
        db.exec('ROLLBACK');
      } finally {
        db.close();
      }
    },
  };
}

function readOwner(file: string): { pid: number } | null {
  try {
    const o = JSON.parse(fs.readFileSync(file, 'utf8'));
    return typeof o.pid === 'number' ? o : null;
  } catch {
    return null;
  }
}
