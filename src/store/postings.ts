import type Database from 'better-sqlite3';
import { prepared } from './queries.js';

/**
 * Search postings (src/retrieve/terms.ts), stored compactly (schema 11). Rows of (term, id, tf) with an
 * index by term and one by id took 50 bytes a posting (18 MB of Django's 39 MB index); here each term
 * is one row of the dictionary `terms`, and each collection has
 *   - `<c>_postings` (term_id → the documents holding the term, ascending, with their term frequency) for queries, and
 *   - `<c>_terms` (document → its term ids and frequencies) so that an update can remove a document's postings;
 * both as runs of unsigned varints (delta from the previous id, then tf): 2–4 bytes a posting.
 * Additions and removals are buffered by PostingsWriter and written per term by flush(): a full build
 * writes each term's row once.
 */

export type PostingsCollection = 'files' | 'units';

const TABLES: Record<PostingsCollection, { postings: string; forward: string; key: string }> = {
  files: { postings: 'file_postings', forward: 'file_terms', key: 'file_id' },
  units: { postings: 'unit_postings', forward: 'unit_terms', key: 'symbol_id' },
};

/**
 * Pairs are flat, [id, tf, id, tf, …] with ids ascending: an update's process runs this code cold, and
 * an array per pair was most of its cost. Stored as varints of the id's delta (from `base` for the
 * first) and the tf.
 */
export function encodePairs(pairs: ArrayLike<number>, base = 0): Buffer {
  // At most 8 bytes for an id below 2^53, 5 for a tf.
  const out = Buffer.allocUnsafe(Math.ceil(pairs.length / 2) * 13);
  let n = 0;
  let last = base;
  for (let i = 0; i < pairs.length; i += 2) {
    const id = pairs[i];
    n = writeVarint(out, n, id - last);
    n = writeVarint(out, n, pairs[i + 1]);
    last = id;
  }
  return Buffer.from(out.subarray(0, n));
}

/** Writes v at out[n…] and returns the offset after it. */
function writeVarint(out: Uint8Array, n: number, v: number): number {
  while (v > 0x7fffffff) {
    out[n++] = (v % 128) + 128;
    v = Math.floor(v / 128);
  }
  while (v >= 128) {
    out[n++] = (v & 127) | 128;
    v >>>= 7;
  }
  out[n++] = v;
  return n;
}

const TRUNCATED = 'A postings row ends inside a number: the index is damaged (run `cg index --full`)';

/** Reads a run's varints one by one; a run cut short is a damaged row (a snapshot's database is untrusted input). */
class Reader {
  at = 0;
  constructor(readonly buf: Uint8Array) {}

  get done(): boolean {
    return this.at >= this.buf.length;
  }

  next(): number {
    const buf = this.buf;
    if (this.at >= buf.length) throw new Error(TRUNCATED);
    let b = buf[this.at++];
    let v = b & 127;
    for (let scale = 128; b >= 128; scale *= 128) {
      if (this.at >= buf.length) throw new Error(TRUNCATED);
      b = buf[this.at++];
      v += (b & 127) * scale;
    }
    return v;
  }
}

/** The flat pairs of a run (see encodePairs). */
export function decodePairs(buf: Uint8Array): Float64Array {
  let numbers = 0;
  for (let i = 0; i < buf.length; i++) if (buf[i] < 128) numbers++;
  const out = new Float64Array(numbers - (numbers % 2));
  const r = new Reader(buf);
  let id = 0;
  for (let n = 0; !r.done;) {
    id += r.next();
    out[n++] = id;
    out[n++] = r.next();
  }
  return out;
}

/**
 * A run with its pairs of ids in [lo, hi] replaced by `edit(those pairs)` (flat, ids ascending, within
 * [lo, hi]). The pairs before and after are copied as bytes, not decoded: an update changes one file's
 * documents, whose ids are adjacent, in runs of common terms that hold thousands.
 */
export function spliceRun(buf: Uint8Array, lo: number, hi: number, edit: (pairs: number[]) => number[]): Buffer {
  const r = new Reader(buf);
  let id = 0;
  let start = -1; // where the pairs from lo on begin, and the id before them
  let before = 0;
  let after = -1; // the first id past hi, and where its tf begins
  let tail = buf.length;
  const inside: number[] = [];
  while (!r.done) {
    const at = r.at;
    const prev = id;
    id += r.next();
    if (id >= lo && start < 0) {
      start = at;
      before = prev;
    }
    if (id > hi) {
      after = id;
      tail = r.at;
      break;
    }
    const tf = r.next();
    if (id >= lo) inside.push(id, tf);
  }
  if (start < 0) {
    start = buf.length;
    before = id;
  }
  const edited = edit(inside);
  const last = edited.length ? edited[edited.length - 2] : before;
  const parts = [buf.subarray(0, start), encodePairs(edited, before)];
  // The first pair after the range keeps its bytes but its delta, which now counts from the range's last id.
  if (after >= 0) {
    const delta = new Uint8Array(8);
    parts.push(delta.subarray(0, writeVarint(delta, 0, after - last)), buf.subarray(tail));
  }
  return Buffer.concat(parts);
}

/**
 * The postings of the given terms in a collection, in term order (SQLite's BINARY order, as the rows
 * used to come): [term, flat (doc, tf) pairs, docs ascending][].
 */
export function postingsOf(db: Database.Database, c: PostingsCollection, terms: Iterable<string>): [string, Float64Array][] {
  const rows = prepared(db, `SELECT t.term, p.docs FROM terms t JOIN ${TABLES[c].postings} p ON p.term_id = t.id
    WHERE t.term IN (SELECT value FROM json_each(?)) ORDER BY t.term`).raw().all(JSON.stringify([...terms])) as [string, Buffer][];
  return rows.map(([t, docs]) => [t, decodePairs(docs)]);
}

/**
 * Every document's terms in a collection, `schema` being 'main' or an attached copy: [doc, [term, tf][]],
 * docs ascending, terms in dictionary order.
 */
export function documentTerms(db: Database.Database, c: PostingsCollection, schema = 'main', range?: [number, number]):
  [number, [string, number][]][] {
  const { forward, key } = TABLES[c];
  const where = range ? ` WHERE ${key} >= ? AND ${key} < ?` : '';
  const rows = (db.prepare(`SELECT ${key}, terms FROM ${schema}.${forward}${where} ORDER BY ${key}`).raw().all(...(range ?? [])) as [number, Buffer][])
    .map(([doc, blob]) => [doc, decodePairs(blob)] as const);
  const ids = new Set<number>();
  for (const [, pairs] of rows) for (let i = 0; i < pairs.length; i += 2) ids.add(pairs[i]);
  const names = new Map(db.prepare(`SELECT id, term FROM ${schema}.terms WHERE id IN (SELECT value FROM json_each(?))`).raw()
    .all(JSON.stringify([...ids])) as [number, string][]);
  return rows.map(([doc, pairs]) => {
    const terms: [string, number][] = [];
    for (let i = 0; i < pairs.length; i += 2) terms.push([names.get(pairs[i])!, pairs[i + 1]]);
    return [doc, terms];
  });
}

interface Pending {
  /** Documents whose postings go (their forward rows are read when they are removed). */
  removed: Set<number>;
  /** doc → its new terms, flat (term number in PostingsWriter's interned names, tf) pairs. */
  added: Map<number, number[]>;
}

/** Buffers additions and removals of documents' terms; flush() writes them (before the transaction commits). */
export class PostingsWriter {
  private readonly pending: Record<PostingsCollection, Pending> = {
    files: { removed: new Set(), added: new Map() },
    units: { removed: new Set(), added: new Map() },
  };

  /**
   * The terms added since the last flush, numbered as they first come: add() runs while a build's
   * workers extract (this thread is mostly waiting then), so each term string is hashed there once,
   * and flush() maps numbers, not strings, to dictionary ids.
   */
  private interned = new Map<string, number>();
  private names: string[] = [];

  constructor(private readonly db: Database.Database) {}

  add(c: PostingsCollection, doc: number, terms: [string, number][]): void {
    if (!terms.length) return;
    const flat = new Array<number>(2 * terms.length);
    for (let i = 0; i < terms.length; i++) {
      const [t, tf] = terms[i];
      let n = this.interned.get(t);
      if (n === undefined) {
        n = this.names.length;
        this.interned.set(t, n);
        this.names.push(t);
      }
      flat[2 * i] = n;
      flat[2 * i + 1] = tf;
    }
    this.pending[c].added.set(doc, flat);
  }

  /** Removes the documents with ids in [from, to) (one document: [id, id + 1)). */
  remove(c: PostingsCollection, from: number, to: number = from + 1): void {
    const p = this.pending[c];
    const { forward, key } = TABLES[c];
    for (const doc of this.db.prepare(`SELECT ${key} FROM ${forward} WHERE ${key} >= ? AND ${key} < ?`).pluck().all(from, to) as number[]) {
      p.removed.add(doc);
    }
    for (const doc of p.added.keys()) if (doc >= from && doc < to) p.added.delete(doc);
  }

  get dirty(): boolean {
    return Object.values(this.pending).some((p) => p.removed.size || p.added.size);
  }

  /** Writes what was buffered: each touched term's postings row once, the forward rows, new terms. */
  flush(): void {
    if (!this.dirty) return;
    const ids = this.termIds();
    const emptied = new Set<number>();
    for (const c of ['files', 'units'] as const) {
      const { removed, added } = this.pending[c];
      const { postings, forward, key } = TABLES[c];
      // term id → documents removed from it / (doc, tf) pairs added to it, flat and by document.
      const minus = new Map<number, Set<number>>();
      const plus = new Map<number, number[]>();
      const readForward = this.db.prepare(`SELECT terms FROM ${forward} WHERE ${key} = ?`).pluck();
      const dropForward = this.db.prepare(`DELETE FROM ${forward} WHERE ${key} = ?`);
      // A removed document's terms and counts; those it still has, with the same count, once added
      // again (an edited file keeps most of its words) leave their terms' rows as they are.
      const before = new Map<number, Map<number, number>>();
      for (const doc of removed) {
        const blob = readForward.get(doc) as Buffer | undefined;
        if (!blob) continue;
        const pairs = decodePairs(blob);
        const old = new Map<number, number>();
        for (let i = 0; i < pairs.length; i += 2) old.set(pairs[i], pairs[i + 1]);
        before.set(doc, old);
        dropForward.run(doc);
      }
      const putForward = this.db.prepare(`INSERT INTO ${forward} (${key}, terms) VALUES (?, ?)`);
      if (!before.size && this.db.prepare(`SELECT 1 FROM ${postings} LIMIT 1`).get() === undefined) {
        // A full build: no postings yet, nothing removed.
        this.writeFresh(c, ids, putForward);
        added.clear();
        continue;
      }
      // Documents in ascending order, so each term's added pairs come out ordered by document.
      for (const doc of [...added.keys()].sort((a, b) => a - b)) {
        const pairs = byTermId(added.get(doc)!, ids);
        putForward.run(doc, encodePairs(pairs));
        const old = before.get(doc);
        for (let i = 0; i < pairs.length; i += 2) {
          const t = pairs[i];
          const tf = pairs[i + 1];
          if (old?.get(t) === tf) {
            old.delete(t);
            continue;
          }
          const list = plus.get(t);
          if (list) list.push(doc, tf);
          else plus.set(t, [doc, tf]);
        }
      }
      for (const [doc, old] of before) for (const t of old.keys()) (minus.get(t) ?? minus.set(t, new Set()).get(t)!).add(doc);
      // A collection without postings yet (a full build) has no rows to read back and splice.
      const empty = !minus.size && this.db.prepare(`SELECT 1 FROM ${postings} LIMIT 1`).get() === undefined;
      const read = this.db.prepare(`SELECT docs FROM ${postings} WHERE term_id = ?`).pluck();
      const put = this.db.prepare(`INSERT OR REPLACE INTO ${postings} (term_id, docs) VALUES (?, ?)`);
      const drop = this.db.prepare(`DELETE FROM ${postings} WHERE term_id = ?`);
      const touched = minus.size ? [...new Set([...minus.keys(), ...plus.keys()])] : [...plus.keys()];
      for (const t of touched.sort((a, b) => a - b)) {
        const more = plus.get(t) ?? [];
        if (empty) {
          // Splicing into an empty run gives the added pairs' own run (spliceRun, below).
          if (more.length) put.run(t, encodePairs(more));
          continue;
        }
        const gone = minus.get(t);
        const blob = read.get(t) as Buffer | undefined;
        let lo = Infinity;
        let hi = -Infinity;
        for (const doc of gone ?? []) [lo, hi] = [Math.min(lo, doc), Math.max(hi, doc)];
        if (more.length) [lo, hi] = [Math.min(lo, more[0]), Math.max(hi, more[more.length - 2])];
        const next = spliceRun(blob ?? new Uint8Array(0), lo, hi, (pairs) => merged(pairs, gone, more));
        if (next.length) put.run(t, next);
        else {
          drop.run(t);
          emptied.add(t);
        }
      }
      removed.clear();
      added.clear();
    }
    this.interned = new Map();
    this.names = [];
    // A term no document holds any more leaves the dictionary.
    const unused = this.db.prepare(`DELETE FROM terms WHERE id = ? AND NOT EXISTS (SELECT 1 FROM file_postings WHERE term_id = ?)
      AND NOT EXISTS (SELECT 1 FROM unit_postings WHERE term_id = ?)`);
    for (const t of emptied) unused.run(t, t, t);
  }

  /**
   * A collection's first postings (a full build): each document's forward row, then each term's run,
   * its documents ascending, from one flat table of all pairs grouped by term (a counting sort) instead of
   * a growing array per term: the same rows as the general path, written in the same order, with an
   * eighth of the allocations (Go's standard library: ~3M pairs).
   */
  private writeFresh(c: PostingsCollection, ids: Float64Array, putForward: Database.Statement): void {
    const { added } = this.pending[c];
    const put = this.db.prepare(`INSERT INTO ${TABLES[c].postings} (term_id, docs) VALUES (?, ?)`);
    const docs = [...added.keys()].sort((a, b) => a - b);
    const sorted = docs.map((doc) => byTermId(added.get(doc)!, ids));
    let top = 0;
    let total = 0;
    for (let k = 0; k < docs.length; k++) {
      const pairs = sorted[k];
      putForward.run(docs[k], encodePairs(pairs));
      for (let i = 0; i < pairs.length; i += 2) if (pairs[i] > top) top = pairs[i];
      total += pairs.length / 2;
    }
    const start = new Int32Array(top + 2);
    for (const pairs of sorted) for (let i = 0; i < pairs.length; i += 2) start[pairs[i] + 1]++;
    for (let t = 1; t < start.length; t++) start[t] += start[t - 1];
    const next = start.slice(0, top + 1);
    const run = new Float64Array(2 * total);
    for (let k = 0; k < docs.length; k++) {
      const pairs = sorted[k];
      for (let i = 0; i < pairs.length; i += 2) {
        const at = 2 * next[pairs[i]]++;
        run[at] = docs[k];
        run[at + 1] = pairs[i + 1];
      }
    }
    for (let t = 0; t <= top; t++) if (start[t + 1] > start[t]) put.run(t, encodePairs(run.subarray(2 * start[t], 2 * start[t + 1])));
  }

  /**
   * Dictionary ids of the interned terms, by their numbers (a term added and then removed before the
   * flush gets one too, unused); new terms are numbered in sorted order (a full build's ids follow
   * the terms' order).
   */
  private termIds(): Float64Array {
    const ids = new Float64Array(this.names.length).fill(-1);
    let next = ((this.db.prepare('SELECT MAX(id) FROM terms').pluck().get() as number | null) ?? 0) + 1;
    // An empty dictionary (a full build) has none of them.
    if (next > 1) {
      const known = this.db.prepare('SELECT term, id FROM terms WHERE term IN (SELECT value FROM json_each(?))').raw()
        .all(JSON.stringify(this.names)) as [string, number][];
      for (const [t, id] of known) ids[this.interned.get(t)!] = id;
    }
    // Only terms a pending document holds are new words of the dictionary.
    const held = new Uint8Array(this.names.length);
    for (const p of Object.values(this.pending)) for (const flat of p.added.values()) for (let i = 0; i < flat.length; i += 2) held[flat[i]] = 1;
    const fresh = sortBinary(this.names.filter((_, n) => held[n] && ids[n] < 0));
    const ins = this.db.prepare('INSERT INTO terms (id, term) VALUES (?, ?)');
    for (const t of fresh) {
      ins.run(next, t);
      ids[this.interned.get(t)!] = next++;
    }
    return ids;
  }
}

/**
 * A document's terms (flat (interned number, tf) pairs) as flat (term id, tf) pairs in ascending term
 * id. Sorted as numbers that carry the pair's position (id · 2^21 + position: exact below 2^53 for
 * ids below 2^32), so no array per pair is made.
 */
function byTermId(terms: number[], ids: Float64Array): number[] {
  const n = terms.length / 2;
  if (n >= 1 << 21) throw new Error(`a document with ${n} distinct terms`);
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = ids[terms[2 * i]] * 2097152 + i;
  keys.sort();
  const out = new Array<number>(2 * n);
  for (let i = 0; i < n; i++) {
    const pos = keys[i] % 2097152;
    out[2 * i] = (keys[i] - pos) / 2097152;
    out[2 * i + 1] = terms[2 * pos + 1];
  }
  return out;
}

/** A term's flat pairs without the documents `gone`, with `plus` (flat, by document) merged in. */
function merged(pairs: number[], gone: Set<number> | undefined, plus: number[]): number[] {
  const out: number[] = [];
  let j = 0;
  for (let i = 0; i < pairs.length; i += 2) {
    const doc = pairs[i];
    if (gone?.has(doc)) continue;
    for (; j < plus.length && plus[j] < doc; j += 2) out.push(plus[j], plus[j + 1]);
    out.push(doc, pairs[i + 1]);
  }
  for (; j < plus.length; j += 2) out.push(plus[j], plus[j + 1]);
  return out;
}

/**
 * Strings in SQLite's BINARY order. Without surrogate pairs (characters above U+FFFF) UTF-16 code
 * units order strings as their UTF-8 bytes do, so the default sort is that order; otherwise each
 * comparison encodes (compareBinary).
 */
export function sortBinary(strings: string[]): string[] {
  return strings.some((s) => SURROGATE.test(s)) ? strings.sort(compareBinary) : strings.sort();
}
const SURROGATE = /[\uD800-\uDFFF]/;

/** SQLite's BINARY collation (UTF-8 bytes), which JavaScript's < (UTF-16 code units) differs from above U+FFFF. */
export function compareBinary(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/**
 * Null when a collection's postings are whole: every row decodes, each term id is in the dictionary,
 * and the two directions hold the same (term, document, tf) triples; else what is wrong. (A snapshot's
 * database is untrusted input, and an update trusts the forward rows to find a document's postings.)
 */
export function postingsProblem(db: Database.Database, c: PostingsCollection): string | null {
  const { postings, forward, key } = TABLES[c];
  for (const [table, column] of [[postings, 'docs'], [forward, 'terms']]) {
    const other = db.prepare(`SELECT COUNT(*) FROM ${table} WHERE typeof(${column}) != 'blob'`).pluck().get() as number;
    if (other) return `${table} has ${other} row(s) whose ${column} is not a BLOB`;
  }
  try {
    // The forward rows turned around: each term's (document, tf) pairs, documents ascending (rows come by
    // document), then walked beside the term's postings row, which lists its documents ascending too.
    // (A map keyed by "term document" strings took 3 s for sqlalchemy's postings.)
    const byTerm: number[][] = [];
    let held = 0;
    for (const [doc, blob] of db.prepare(`SELECT ${key}, terms FROM ${forward} ORDER BY ${key}`).raw().iterate() as Iterable<[number, Buffer]>) {
      const pairs = decodePairs(blob);
      for (let i = 0; i < pairs.length; i += 2) {
        const t = pairs[i];
        if (!Number.isSafeInteger(t) || t > 0x7fffffff) return `${forward} names term ${t}, which cannot be a dictionary id`;
        (byTerm[t] ??= []).push(doc, pairs[i + 1]);
        held++;
      }
    }
    let n = 0;
    for (const [t, blob] of db.prepare(`SELECT term_id, docs FROM ${postings}`).raw().iterate() as Iterable<[number, Buffer]>) {
      const pairs = decodePairs(blob);
      const fwd = Number.isSafeInteger(t) && t >= 0 && t <= 0x7fffffff ? byTerm[t] ?? [] : [];
      for (let i = 0, j = 0; i < pairs.length; i += 2) {
        while (j < fwd.length && fwd[j] < pairs[i]) j += 2;
        if (j >= fwd.length || fwd[j] !== pairs[i] || fwd[j + 1] !== pairs[i + 1]) {
          return `${postings} lists document ${pairs[i]} under term ${t}, which ${forward} does not`;
        }
        j += 2;
        n++;
      }
    }
    if (n !== held) return `${forward} holds ${held} postings; ${postings} ${n}`;
    const unknown = db.prepare(`SELECT COUNT(*) FROM ${postings} WHERE term_id NOT IN (SELECT id FROM terms)`).pluck().get() as number;
    if (unknown) return `${postings} has ${unknown} term(s) that are not in the dictionary`;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  return null;
}
