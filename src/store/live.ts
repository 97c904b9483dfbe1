import path from 'node:path';
import type Database from 'better-sqlite3';
import { currentBuildId, openReader } from './db.js';
import { freshnessOf, type Freshness } from './freshness.js';
import { readHead } from '../repo/head.js';
import { pendingRecords } from '../changes/log.js';

/**
 * The newest index of a repository for a long-running reader (the MCP server). Before each request
 * the build pointer (.codegraph/CURRENT) is read again: while it names the same build the open handle
 * is reused; when a full build has replaced it, the old handle is closed and the new build opened. Each
 * request runs inside one read transaction, so it sees exactly one generation even when an incremental
 * update commits meanwhile (WAL keeps the snapshot), and requests run one at a time, so a handle is
 * never closed under a request that still reads it.
 */
export interface Snapshot {
  root: string;
  db: Database.Database;
  /** The build directory the handle belongs to. */
  buildId: string;
  freshness: Freshness;
}

export class LiveIndex {
  private db: Database.Database | null = null;
  private buildId: string | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  /** Handles opened over the reader's life; a test of the reuse promise reads it. */
  opened = 0;

  constructor(readonly root: string) {}

  /** Runs `fn` against the newest generation, after every request queued before it. */
  read<T>(fn: (snap: Snapshot) => Promise<T> | T): Promise<T> {
    const run = this.queue.then(() => this.inTransaction(fn));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async inTransaction<T>(fn: (snap: Snapshot) => Promise<T> | T): Promise<T> {
    const db = this.current();
    db.exec('BEGIN');
    try {
      const freshness = freshnessOf(db, readHead(this.root), (checkpoint) => pendingRecords(this.root, checkpoint));
      return await fn({ root: this.root, db, buildId: this.buildId!, freshness });
    } finally {
      if (db.open && db.inTransaction) db.exec('COMMIT');
    }
  }

  /** The open handle if the pointer still names its build; otherwise the new build, opened now. */
  private current(): Database.Database {
    const id = currentBuildId(this.root);
    if (this.db && id === this.buildId) return this.db;
    // openReader reads the pointer itself and explains a missing, corrupt or incompatible index.
    const db = openReader(this.root);
    this.close();
    this.db = db;
    this.buildId = path.basename(path.dirname(db.name));
    this.opened++;
    return db;
  }

  close(): void {
    if (this.db?.open) this.db.close();
    this.db = null;
    this.buildId = null;
  }
}
