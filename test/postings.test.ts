import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { currentDbPath } from '../src/store/db.js';
import { createIndexes, createTables } from '../src/store/schema.js';
import { compareBinary, decodePairs, documentTerms, encodePairs, postingsOf, postingsProblem, PostingsWriter, sortBinary, spliceRun } from '../src/store/postings.js';
import { indexedRepo } from './helpers.js';

/** postingsOf's flat pairs as [doc, tf] pairs. */
function postings(db: Database.Database, c: 'files' | 'units', terms: string[]): [string, number[][]][] {
  return postingsOf(db, c, terms).map(([t, flat]) => [t, Array.from({ length: flat.length / 2 }, (_, i) => [flat[2 * i], flat[2 * i + 1]])]);
}

function freshDb(): Database.Database {
  const db = new Database(':memory:');
  createTables(db);
  createIndexes(db);
  return db;
}

describe('postings as varint runs (src/store/postings.ts)', () => {
  it('round-trips ids past 2^32 and term frequencies past one byte; a run cut short is an error, not an endless loop', () => {
    const pairs = [0, 1, 127, 128, 128, 1, 5 * 2 ** 20 + 3, 300, 70_000 * 2 ** 20 + 17, 2];
    const blob = encodePairs(pairs);
    expect([...decodePairs(blob)]).toEqual(pairs);
    expect(blob.length).toBeLessThan(pairs.length * 3);
    expect(() => decodePairs(Buffer.concat([blob, Buffer.from([0x80])]))).toThrow(/ends inside a number/);
  });

  it('splicing a range of a run gives the bytes of the whole run edited and encoded again', () => {
    let seed = 7;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let k = 0; k < 500; k++) {
      const file = () => rand(6) * 1000 * 2 ** 20;
      const ids = [...new Set(Array.from({ length: rand(30) }, () => file() + rand(2000)))].sort((a, b) => a - b);
      const flat = ids.flatMap((id) => [id, 1 + rand(300)]);
      const lo = file() + rand(2000);
      const hi = lo + rand(3000);
      const extra = lo + rand(hi - lo + 1);
      // Drops every pair whose id is a multiple of 3, adds `extra` if it is not there.
      const edit = (pairs: number[]) => {
        const out: [number, number][] = [];
        for (let i = 0; i < pairs.length; i += 2) if (pairs[i] % 3) out.push([pairs[i], pairs[i + 1]]);
        if (!out.some(([id]) => id === extra) && !pairs.includes(extra)) out.push([extra, 5]);
        return out.sort((a, b) => a[0] - b[0]).flat();
      };
      const inside: number[] = [];
      const outside: [number, number][] = [];
      for (let i = 0; i < flat.length; i += 2) {
        if (flat[i] >= lo && flat[i] <= hi) inside.push(flat[i], flat[i + 1]);
        else outside.push([flat[i], flat[i + 1]]);
      }
      const edited = edit(inside);
      for (let i = 0; i < edited.length; i += 2) outside.push([edited[i], edited[i + 1]]);
      const whole = encodePairs(outside.sort((a, b) => a[0] - b[0]).flat());
      expect(spliceRun(encodePairs(flat), lo, hi, edit).equals(whole), `case ${k}`).toBe(true);
    }
  });

  it('an update replaces a document\'s postings in both directions, and a term nobody holds leaves the dictionary', () => {
    const db = freshDb();
    const w = new PostingsWriter(db);
    w.add('units', 20, [['zeta', 1], ['alpha', 2]]);
    w.add('units', 10, [['alpha', 1], ['beta', 3]]);
    w.add('files', 1, [['alpha', 3]]);
    w.flush();
    // Terms in SQLite's order, documents ascending whatever order they were added in.
    expect(postings(db, 'units', ['zeta', 'alpha', 'gone'])).toEqual([['alpha', [[10, 1], [20, 2]]], ['zeta', [[20, 1]]]]);
    expect(db.prepare('SELECT term FROM terms ORDER BY id').pluck().all()).toEqual(['alpha', 'beta', 'zeta']);
    // Document 10 edited (removed and added again in one flush), 20 removed.
    w.remove('units', 10);
    w.add('units', 10, [['beta', 1], ['gamma', 1]]);
    w.remove('units', 20);
    w.flush();
    expect(documentTerms(db, 'units')).toEqual([[10, [['beta', 1], ['gamma', 1]]]]);
    expect(postings(db, 'units', ['alpha', 'beta', 'gamma', 'zeta'])).toEqual([['beta', [[10, 1]]], ['gamma', [[10, 1]]]]);
    expect(postings(db, 'files', ['alpha'])).toEqual([['alpha', [[1, 3]]]]);
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

  it('a first flush into empty tables (a full build\'s) stores what the splicing path stores for the same documents', () => {
    let seed = 11;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    // Characters above U+FFFF sort after U+FFFF in SQLite's BINARY order, before it in UTF-16.
    const words = ['alpha', 'beta', 'z\uFFFF', 'z\u{1F600}', 'caf\u00e9', 'x', 'x1', 'y2k'];
    const docs = Array.from({ length: 40 }, (_, i) => [i * 3 + 5, [...new Set(Array.from({ length: 1 + rand(6) }, () => words[rand(words.length)]))]
      .map((t) => [t, 1 + rand(400)] as [string, number])] as const).concat([[200, words.map((t, i) => [t, i + 1] as [string, number])]]);
    const fast = freshDb();
    const wf = new PostingsWriter(fast);
    for (const [doc, terms] of docs) wf.add('units', doc, terms);
    wf.flush();
    // The same documents written over existing rows: another document first, removed in the same flush.
    const slow = freshDb();
    const ws = new PostingsWriter(slow);
    ws.add('units', 1, words.map((t) => [t, 1] as [string, number]));
    ws.flush();
    ws.remove('units', 1);
    for (const [doc, terms] of docs) ws.add('units', doc, terms);
    ws.flush();
    expect(postings(fast, 'units', words)).toEqual(postings(slow, 'units', words));
    expect(documentTerms(fast, 'units')).toEqual(documentTerms(slow, 'units'));
    // A full build numbers its terms in BINARY order.
    const dictionary = fast.prepare('SELECT term FROM terms ORDER BY id').pluck().all() as string[];
    expect(dictionary).toEqual([...dictionary].sort(compareBinary));
    expect(dictionary.indexOf('z\uFFFF')).toBeLessThan(dictionary.indexOf('z\u{1F600}'));
    expect(postingsProblem(fast, 'units')).toBeNull();
  });

  it('sorts strings in SQLite\'s BINARY order with or without characters above U+FFFF', () => {
    const plain = ['b', 'a\u00e9', 'a', '\uFFFF', 'Z'];
    expect(sortBinary([...plain])).toEqual([...plain].sort(compareBinary));
    const astral = [...plain, '\u{1F600}', 'a\u{10000}'];
    expect(sortBinary([...astral])).toEqual([...astral].sort(compareBinary));
    expect(sortBinary([...astral]).slice(-2)).toEqual(['\uFFFF', '\u{1F600}']);
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
    db.prepare("UPDATE unit_postings SET docs = 'text'").run();
    expect(postingsProblem(db, 'units')).toMatch(/unit_postings has 1 row\(s\) whose docs is not a BLOB/);
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
