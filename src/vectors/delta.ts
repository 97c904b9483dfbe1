/**
 * A generation's vectors as a base file plus a delta: what changed since the base was written.
 *
 * Rewriting the whole vector file for every update cost a one-file edit ~150 ms on Go's standard
 * library (82k vectors, then a 20 MB HNSW file: read, checksum, load, insert, write, read back, checksum, fsync) and
 * most of a warm applier's freshness budget on trpc. An update now writes `vectors-<generation>.delta`:
 * the ids of the base it hides (removed, or replaced by a newer vector) and the vectors added since,
 * searched exactly (a few thousand at most). The base is immutable and shared by the generations
 * that build on it; when the delta outgrows DELTA_LIMIT the next update folds it into a new base
 * (today's whole-file write, once every many updates).
 *
 * File: "CGVD", u32 format, u32 dims, u32 hidden, u32 added, u32 CRC-32 of what follows, then the
 * hidden ids (f64, ascending), the added ids (f64, ascending) and their vectors (f32, `dims` each).
 * Little-endian. Ids are symbol ids (< 2^53). Readers check the CRC before using anything.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { CgError, errorMessage } from '../errors.js';
import { isZero, VectorStore, writeAtomically, type VectorHit } from './store.js';

export interface VectorDelta {
  dims: number;
  /** Ids of the base whose vector no longer counts: removed, or replaced by one in `added`. */
  hidden: Set<number>;
  /** Vectors newer than the base, by id; never zero vectors (see VectorStore.upsert). */
  added: Map<number, Float32Array>;
}

const MAGIC = 0x44564743; // "CGVD" read as a little-endian u32
const FORMAT = 1;
const HEADER = 24;
const FILE_RE = /^vectors-(\d+)\.delta$/;

/**
 * Changes a delta may hold before the next update folds it into a new base: 2 % of the base, at
 * least 256. Searching 2 % of the vectors exactly costs less than a millisecond at Go's size, and
 * the fold, which costs what every update used to, comes once per that many changed symbols.
 */
export function deltaLimit(baseSize: number): number {
  return Math.max(256, Math.ceil(baseSize * 0.02));
}

export function deltaFileName(generation: number): string {
  if (!Number.isInteger(generation) || generation < 0) throw new CgError('internal', `Bad generation ${generation} for a vector delta`);
  return `vectors-${generation}.delta`;
}

export function isDeltaFileName(name: string): boolean {
  return FILE_RE.test(name);
}

export function emptyDelta(dims: number): VectorDelta {
  return { dims, hidden: new Set(), added: new Map() };
}

/** The delta's size as DELTA_LIMIT counts it. */
export function deltaChanges(d: VectorDelta): number {
  return d.hidden.size + d.added.size;
}

/** Serialises a delta; the same delta gives the same bytes. */
export function encodeDelta(d: VectorDelta): Buffer {
  const hidden = [...d.hidden].sort((a, b) => a - b);
  const ids = [...d.added.keys()].sort((a, b) => a - b);
  const body = Buffer.alloc(8 * hidden.length + 8 * ids.length + 4 * ids.length * d.dims);
  let at = 0;
  for (const id of hidden) at = body.writeDoubleLE(id, at);
  for (const id of ids) at = body.writeDoubleLE(id, at);
  for (const id of ids) {
    const v = d.added.get(id)!;
    if (v.length !== d.dims) throw new CgError('internal', `A vector delta of ${d.dims} dimensions cannot hold one of ${v.length}`);
    for (let i = 0; i < v.length; i++) at = body.writeFloatLE(v[i], at);
  }
  const head = Buffer.alloc(HEADER);
  head.writeUInt32LE(MAGIC, 0);
  head.writeUInt32LE(FORMAT, 4);
  head.writeUInt32LE(d.dims, 8);
  head.writeUInt32LE(hidden.length, 12);
  head.writeUInt32LE(ids.length, 16);
  head.writeUInt32LE(zlib.crc32(body), 20);
  return Buffer.concat([head, body]);
}

export function decodeDelta(data: Buffer, file = 'the vector delta'): VectorDelta {
  const bad = (why: string) => new CgError('index_corrupt', `The vector delta ${file} is damaged: ${why}`,
    'Run `cg update` to rebuild the vectors from the database (or `cg index` to rebuild everything).');
  if (data.length < HEADER || data.readUInt32LE(0) !== MAGIC) throw bad('it is not a cg vector delta');
  if (data.readUInt32LE(4) !== FORMAT) throw bad(`its format ${data.readUInt32LE(4)} is not ${FORMAT}`);
  const dims = data.readUInt32LE(8);
  const nHidden = data.readUInt32LE(12);
  const nAdded = data.readUInt32LE(16);
  const expected = HEADER + 8 * nHidden + 8 * nAdded + 4 * nAdded * dims;
  if (data.length !== expected) throw bad(`it has ${data.length} bytes, its header says ${expected}`);
  const body = data.subarray(HEADER);
  if (zlib.crc32(body) !== data.readUInt32LE(20)) throw bad('its checksum does not match');
  let at = 0;
  const hidden = new Set<number>();
  for (let i = 0; i < nHidden; i++, at += 8) hidden.add(body.readDoubleLE(at));
  const ids: number[] = [];
  for (let i = 0; i < nAdded; i++, at += 8) ids.push(body.readDoubleLE(at));
  // One copy into an aligned buffer, then a view per vector.
  const flat = new Float32Array(nAdded * dims);
  for (let i = 0; i < flat.length; i++, at += 4) flat[i] = body.readFloatLE(at);
  const added = new Map<number, Float32Array>();
  ids.forEach((id, i) => added.set(id, flat.subarray(i * dims, (i + 1) * dims)));
  return { dims, hidden, added };
}

/** Reads and checks a delta file; its CRC-32 (the header's) comes with it, for meta. */
export function readDelta(file: string): { delta: VectorDelta; checksum: number } {
  let data: Buffer;
  try {
    data = fs.readFileSync(file);
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    throw new CgError('index_corrupt', missing ? `The vector delta ${file} is missing` : `Cannot read the vector delta ${file}: ${errorMessage(err)}`,
      'Run `cg update` to rebuild the vectors from the database (or `cg index` to rebuild everything).');
  }
  const delta = decodeDelta(data, file);
  return { delta, checksum: data.readUInt32LE(20) };
}

/** Writes `vectors-<generation>.delta` into dir atomically (temp file, fsync, rename); its name and CRC-32. */
export function writeDelta(dir: string, generation: number, d: VectorDelta): { name: string; checksum: number } {
  const name = deltaFileName(generation);
  const file = path.join(dir, name);
  const data = encodeDelta(d);
  try {
    writeAtomically(file, data);
  } catch (err) {
    fs.rmSync(`${file}.${process.pid}.tmp`, { force: true });
    throw new CgError('io', `Cannot write the vector delta ${file}: ${errorMessage(err)}`, 'Check free disk space and permissions of .codegraph/.');
  }
  return { name, checksum: data.readUInt32LE(20) };
}

/**
 * Records in `d` that the vectors of `gone` are removed and those of `changed` are new (a zero vector
 * counts as removed, as upsert treats it). `inBase` says which ids the base holds.
 */
export function applyToDelta(d: VectorDelta, inBase: (id: number) => boolean, gone: Iterable<number>, changed: Iterable<[number, Float32Array]>): void {
  for (const id of gone) {
    d.added.delete(id);
    if (inBase(id)) d.hidden.add(id);
  }
  for (const [id, v] of changed) {
    if (inBase(id)) d.hidden.add(id);
    if (isZero(v)) d.added.delete(id);
    else d.added.set(id, v);
  }
}

/**
 * What readers search: the base file (its hidden ids skipped) and the delta's vectors (exact cosine).
 * size, has and countPresent describe the combination, as reconcile needs.
 */
export class LayeredVectors {
  private readonly norms = new Map<number, number>();

  constructor(readonly base: VectorStore, readonly delta: VectorDelta) {
    if (delta.dims !== base.dims && deltaChanges(delta)) {
      throw new CgError('index_corrupt', `The vector delta has ${delta.dims} dimensions, its base ${base.dims}`,
        'Run `cg update` to rebuild the vectors from the database.');
    }
    for (const [id, v] of delta.added) this.norms.set(id, Math.hypot(...v));
  }

  get dims(): number {
    return this.base.dims;
  }

  /** The hidden ids are all in the base (applyToDelta adds only those), so this is exact. */
  get size(): number {
    return this.base.size - this.delta.hidden.size + this.delta.added.size;
  }

  has(id: number): boolean {
    return this.delta.added.has(id) || (!this.delta.hidden.has(id) && this.base.has(id));
  }

  countPresent(ids: readonly number[]): number {
    const { added, hidden } = this.delta;
    const fromBase = ids.filter((id) => !added.has(id) && !hidden.has(id));
    return ids.filter((id) => added.has(id)).length + this.base.countPresent(fromBase);
  }

  /** The k nearest by cosine, best first, over the base's visible vectors and the delta's. */
  search(query: Float32Array, k: number): VectorHit[] {
    const hidden = this.delta.hidden;
    const visibleBase = this.base.size - hidden.size;
    const want = Math.min(k, visibleBase);
    // Usually none of the few hidden ids is near the query: ask for a little more first, and for
    // enough to cover all of them only when that was not enough.
    let fromBase: VectorHit[] = [];
    if (want > 0) {
      for (const extra of [Math.min(hidden.size, 32), hidden.size]) {
        fromBase = this.base.search(query, want + extra).filter((h) => !hidden.has(h.id));
        if (fromBase.length >= want || extra === hidden.size) break;
      }
    }
    const qn = Math.hypot(...query);
    const exact: VectorHit[] = [];
    if (qn > 0) {
      for (const [id, v] of this.delta.added) {
        let dot = 0;
        for (let i = 0; i < v.length; i++) dot += v[i] * query[i];
        exact.push({ id, score: dot / (qn * this.norms.get(id)!) });
      }
    }
    if (!exact.length) return fromBase.slice(0, k);
    return [...fromBase, ...exact].sort((a, b) => b.score - a.score || a.id - b.id).slice(0, k);
  }
}

/** A generation's vectors as meta names them (`vectors_file`, `vectors_delta`), the base as a read-only view. */
export function openLayered(dir: string, baseName: string, deltaName: string): LayeredVectors {
  return layersOver(VectorStore.open(path.join(dir, baseName), { view: true }), dir, deltaName);
}

/** An opened base with the delta meta names (none: ''), read and checked. */
export function layersOver(base: VectorStore, dir: string, deltaName: string): LayeredVectors {
  return new LayeredVectors(base, deltaName ? readDelta(path.join(dir, deltaName)).delta : emptyDelta(base.dims));
}
