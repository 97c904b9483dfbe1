import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { currentDbPath } from '../src/store/db.js';
import { createIndexes, createTables } from '../src/store/schema.js';
import { decodePairs, documentTerms, encodePairs, postingsOf, postingsProblem, PostingsWriter } from '../src/store/postings.js';
import { indexedRepo } from './helpers.js';

function freshDb(): Database.Database {
  const db = new Database(':memory:');
  createTables(db);
  createIndexes(db);
  return db;
}

describe('postings as varint runs (src/store/postings.ts)', () => {
  it('round-trips ids past 2^32 and term frequencies past one byte; a run cut short is an error, not an endless loop', () => {
    const pairs: [number, number][] = [[0, 1], [127, 128], [128, 1], [5 * 2 ** 20 + 3, 300], [70_000 * 2 ** 20 + 17, 2]];
    const blob = encodePairs(pairs);
    expect(decodePairs(blob)).toEqual(pairs);
    expect(blob.length).toBeLessThan(pairs.length * 6);
    expect(() => decodePairs(Buffer.concat([blob, Buffer.from([0x80])]))).toThrow(/ends inside a number/);
  });

  it('an update replaces a document\'s postings in both directions, and a term nobody holds leaves the dictionary', () => {
    const db = freshDb();
    const w = new PostingsWriter(db);
    w.add('units', 20, [['zeta', 1], ['alpha', 2]]);
    w.add('units', 10, [['alpha', 1], ['beta', 3]]);
    w.add('files', 1, [['alpha', 3]]);
    w.flush();
    // Terms in SQLite's order, documents ascending whatever order they were added in.
    expect(postingsOf(db, 'units', ['zeta', 'alpha', 'gone'])).toEqual([['alpha', [[10, 1], [20, 2]]], ['zeta', [[20, 1]]]]);
    expect(db.prepare('SELECT term FROM terms ORDER BY id').pluck().all()).toEqual(['alpha', 'beta', 'zeta']);
    // Document 10 edited (removed and added again in one flush), 20 removed.
    w.remove('units', 10);
    w.add('units', 10, [['beta', 1], ['gamma', 1]]);
    w.remove('units', 20);
    w.flush();
    expect(documentTerms(db, 'units')).toEqual([[10, [['beta', 1], ['gamma', 1]]]]);
    expect(postingsOf(db, 'units', ['alpha', 'beta', 'gamma', 'zeta'])).toEqual([['beta', [[10, 1]]], ['gamma', [[10, 1]]]]);
    expect(postingsOf(db, 'files', ['alpha'])).toEqual([['alpha', [[1, 3]]]]);
    // zeta: no document; alpha: still a file's term.
    expect(db.prepare('SELECT term FROM terms ORDER BY term').pluck().all()).toEqual(['alpha', 'beta', 'gamma']);
    expect([postingsProblem(db, 'files'), postingsProblem(db, 'units')]).toEqual([null, null]);
    // A range removal (a file's units) drops an addition not flushed yet too.
    w.add('units', 11, [['beta', 2]]);
    w.remove('units', 0, 100);
    w.flush();
    expect(documentTerms(db, 'units')).toEqual([]);
    expect(db.prepare('SELECT COUNT(*) FROM unit_postings').pluck().get()).toBe(0);
  });

  it('finds postings whose two directions disagree or that do not decode', () => {
    const db = freshDb();
    const w = new PostingsWriter(db);
    w.add('units', 7, [['alpha', 1]]);
    w.add('units', 8, [['alpha', 2]]);
    w.flush();
    db.prepare('DELETE FROM unit_terms WHERE symbol_id = 8').run();
    expect(postingsProblem(db, 'units')).toMatch(/lists document 8 under term 1/);
    db.prepare("UPDATE unit_postings SET docs = X'0780'").run();
    expect(postingsProblem(db, 'units')).toMatch(/ends inside a number/);
  });

  it('a real index stores a posting in a few bytes, both directions and the dictionary counted', () => {
    const root = indexedRepo('python');
    const db = new Database(currentDbPath(root)!, { readonly: true });
    try {
      const postings = documentTerms(db, 'files').concat(documentTerms(db, 'units')).reduce((n, [, terms]) => n + terms.length, 0);
      expect(postings).toBeGreaterThan(300);
      const bytes = db.prepare(`SELECT SUM(payload) FROM dbstat WHERE name IN ('terms', 'sqlite_autoindex_terms_1', 'file_postings',
        'unit_postings', 'file_terms', 'unit_terms')`).pluck().get() as number;
      // 11.4 bytes here, the dictionary included (a small repository has few postings per term); rows of
      // (term, id, tf) with an index by term and one by id took 27.8 (and 50 on Django).
      expect(bytes / postings).toBeLessThan(16);
      expect([postingsProblem(db, 'files'), postingsProblem(db, 'units')]).toEqual([null, null]);
    } finally {
      db.close();
    }
  });
});
