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

/** (id, tf) pairs, ids ascending, as varints of the id's delta and the tf. */
export function encodePairs(pairs: readonly (readonly [number, number])[]): Buffer {
  const out: number[] = [];
  const varint = (v: number) => {
    while (v >= 128) {
      out.push((v % 128) + 128);
      v = Math.floor(v / 128);
    }
    out.push(v);
  };
  let last = 0;
  for (const [id, tf] of pairs) {
    varint(id - last);
    varint(tf);
    last = id;
  }
  return Buffer.from(out);
}

export function decodePairs(buf: Uint8Array): [number, number][] {
  const out: [number, number][] = [];
  let i = 0;
  const varint = () => {
    let v = 0;
    let scale = 1;
    for (;;) {
      // A run cut short is a damaged row (a snapshot's database is untrusted input).
      if (i >= buf.length) throw new Error('A postings row ends inside a number: the index is damaged (run `cg index --full`)');
      const b = buf[i++];
      v += (b & 127) * scale;
      if (b < 128) return v;
      scale *= 128;
    }
  };
  let id = 0;
  while (i < buf.length) {
    id += varint();
    out.push([id, varint()]);
  }
  return out;
}

/** The postings of the given terms in a collection, in term order (SQLite's BINARY order, as the rows used to come): [term, [doc, tf][]]. */
export function postingsOf(db: Database.Database, c: PostingsCollection, terms: Iterable<string>): [string, [number, number][]][] {
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
  const dict = termNames(db, schema);
  const where = range ? ` WHERE ${key} >= ? AND ${key} < ?` : '';
  const rows = db.prepare(`SELECT ${key}, terms FROM ${schema}.${forward}${where} ORDER BY ${key}`).raw().all(...(range ?? [])) as [number, Buffer][];
  return rows.map(([doc, blob]) => [doc, decodePairs(blob).map(([t, tf]) => [dict(t), tf] as [string, number])]);
}

/** Term id → term, read lazily by id (an update reads a few documents; a dump reads them all). */
function termNames(db: Database.Database, schema: string): (id: number) => string {
  const one = db.prepare(`SELECT term FROM ${schema}.terms WHERE id = ?`).pluck();
  const cache = new Map<number, string>();
  return (id) => {
    let t = cache.get(id);
    if (t === undefined) {
      t = one.get(id) as string;
      cache.set(id, t);
    }
    return t;
  };
}

interface Pending {
  /** Documents whose postings go (their forward rows are read when they are removed). */
  removed: Set<number>;
  /** doc → its new terms. */
  added: Map<number, [string, number][]>;
}

/** Buffers additions and removals of documents' terms; flush() writes them (before the transaction commits). */
export class PostingsWriter {
  private readonly pending: Record<PostingsCollection, Pending> = {
    files: { removed: new Set(), added: new Map() },
    units: { removed: new Set(), added: new Map() },
  };

  constructor(private readonly db: Database.Database) {}

  add(c: PostingsCollection, doc: number, terms: [string, number][]): void {
    if (terms.length) this.pending[c].added.set(doc, terms);
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
      // term id → documents removed from it / added to it.
      const minus = new Map<number, Set<number>>();
      const plus = new Map<number, [number, number][]>();
      const readForward = this.db.prepare(`SELECT terms FROM ${forward} WHERE ${key} = ?`).pluck();
      const dropForward = this.db.prepare(`DELETE FROM ${forward} WHERE ${key} = ?`);
      for (const doc of removed) {
        const blob = readForward.get(doc) as Buffer | undefined;
        if (!blob) continue;
        for (const [t] of decodePairs(blob)) (minus.get(t) ?? minus.set(t, new Set()).get(t)!).add(doc);
        dropForward.run(doc);
      }
      const putForward = this.db.prepare(`INSERT INTO ${forward} (${key}, terms) VALUES (?, ?)`);
      for (const doc of [...added.keys()].sort((a, b) => a - b)) {
        const pairs = added.get(doc)!.map(([t, tf]) => [ids.get(t)!, tf] as [number, number]).sort((a, b) => a[0] - b[0]);
        putForward.run(doc, encodePairs(pairs));
        for (const [t, tf] of pairs) (plus.get(t) ?? plus.set(t, []).get(t)!).push([doc, tf]);
      }
      const read = this.db.prepare(`SELECT docs FROM ${postings} WHERE term_id = ?`).pluck();
      const put = this.db.prepare(`INSERT OR REPLACE INTO ${postings} (term_id, docs) VALUES (?, ?)`);
      const drop = this.db.prepare(`DELETE FROM ${postings} WHERE term_id = ?`);
      for (const t of [...new Set([...minus.keys(), ...plus.keys()])].sort((a, b) => a - b)) {
        const gone = minus.get(t);
        const blob = read.get(t) as Buffer | undefined;
        const kept = blob ? decodePairs(blob).filter(([doc]) => !gone?.has(doc)) : [];
        const next = plus.has(t) ? [...kept, ...plus.get(t)!].sort((a, b) => a[0] - b[0]) : kept;
        if (next.length) put.run(t, encodePairs(next));
        else {
          drop.run(t);
          emptied.add(t);
        }
      }
      removed.clear();
      added.clear();
    }
    // A term no document holds any more leaves the dictionary.
    const unused = this.db.prepare(`DELETE FROM terms WHERE id = ? AND NOT EXISTS (SELECT 1 FROM file_postings WHERE term_id = ?)
      AND NOT EXISTS (SELECT 1 FROM unit_postings WHERE term_id = ?)`);
    for (const t of emptied) unused.run(t, t, t);
  }

  /** Dictionary ids of every added term; new terms are numbered in sorted order (a full build's ids follow the terms' order). */
  private termIds(): Map<string, number> {
    const wanted = new Set<string>();
    for (const p of Object.values(this.pending)) for (const terms of p.added.values()) for (const [t] of terms) wanted.add(t);
    const ids = new Map<string, number>();
    const known = this.db.prepare('SELECT term, id FROM terms WHERE term IN (SELECT value FROM json_each(?))').raw()
      .all(JSON.stringify([...wanted])) as [string, number][];
    for (const [t, id] of known) ids.set(t, id);
    const fresh = [...wanted].filter((t) => !ids.has(t)).sort(compareBinary);
    let next = ((this.db.prepare('SELECT MAX(id) FROM terms').pluck().get() as number | null) ?? 0) + 1;
    const ins = this.db.prepare('INSERT INTO terms (id, term) VALUES (?, ?)');
    for (const t of fresh) {
      ins.run(next, t);
      ids.set(t, next++);
    }
    return ids;
  }
}

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
  try {
    const held = new Map<string, number>();
    for (const [doc, blob] of db.prepare(`SELECT ${key}, terms FROM ${forward}`).raw().iterate() as Iterable<[number, Buffer]>) {
      for (const [t, tf] of decodePairs(blob)) held.set(`${t} ${doc}`, tf);
    }
    let n = 0;
    for (const [t, blob] of db.prepare(`SELECT term_id, docs FROM ${postings}`).raw().iterate() as Iterable<[number, Buffer]>) {
      for (const [doc, tf] of decodePairs(blob)) {
        if (held.get(`${t} ${doc}`) !== tf) return `${postings} lists document ${doc} under term ${t}, which ${forward} does not`;
        n++;
      }
    }
    if (n !== held.size) return `${forward} holds ${held.size} postings; ${postings} ${n}`;
    const unknown = db.prepare(`SELECT COUNT(*) FROM ${postings} WHERE term_id NOT IN (SELECT id FROM terms)`).pluck().get() as number;
    if (unknown) return `${postings} has ${unknown} term(s) that are not in the dictionary`;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  return null;
}
