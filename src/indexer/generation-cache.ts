import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import zlib from 'node:zlib';
import { CG_VERSION } from '../version.js';

/**
 * Rows a process read or wrote at one generation of an index, kept so the next update patches them
 * instead of reading everything again. An entry is keyed by the database file, its build id and its
 * generation: any other writer (another process, a rebuild, a snapshot restore) moves one of these,
 * and the rows are then read afresh.
 *
 * With a `disk` name the rows also go to a file beside the database (`<disk>-<generation>.v8`, V8's
 * serialization, written after the generation commits), so the next update finds them even in another
 * process: a hook-started `cg update` is a process of its own, and reading Go's standard library's
 * rank rows from SQLite took ~0.7 s where the file takes ~0.07. The file names its build, generation,
 * cg and V8 versions and carries a CRC-32 of its rows; anything else (a torn write, another version)
 * is ignored and the rows are read from the database as before. It is a cache: losing it costs time only.
 *
 * A `codec` turns the rows into columns (typed arrays, one string of all the text) before V8 serializes
 * them: V8 (de)serializes a typed array as its bytes, but a Map of small objects field by field, object
 * by object. Go's standard library's resolve rows read in ~160 ms as objects and ~70 ms as columns, its
 * rank rows in ~55 and ~33 ms (the same rows, in one process).
 */
export interface RowCodec<T, Packed = unknown> {
  /** Named in the file's header: a file written with another version is not read. */
  version: number;
  pack(value: T): Packed;
  unpack(packed: Packed): T;
}

/** Integer columns: 4 bytes a value when every value fits (narrowInts), 8 otherwise. */
export type Ints = Int32Array | Float64Array;

/**
 * The same integers in an Int32Array when every one fits, half the bytes of doubles; a column with one
 * that does not (an id past 2^31, a fraction, -0) stays as it is. With symbol ids relative to their
 * file's (src/store/writer.ts), the row files went from 2.28 to 1.19 MB on Django and from 19.4 to
 * 10.3 MB on Go's standard library, written and read in about the same time.
 */
export function narrowInts(values: Float64Array): Ints {
  // Converted and compared by V8's and Node's own loops (a JavaScript loop is slow in a one-shot
  // update, which runs without TurboFan): a value that does not fit comes back different.
  const out = new Int32Array(values);
  const back = new Float64Array(out);
  return Buffer.compare(bytesOf(back), bytesOf(values)) === 0 ? out : values;
}

function bytesOf(a: Float64Array): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}

/**
 * String lengths, null as the array's largest value: two bytes each unless a string is 65,535
 * characters or longer. A reader tells which by the array's type.
 */
export function narrowLengths(strings: readonly (string | null)[]): Uint16Array | Uint32Array {
  let wide = false;
  for (const s of strings) if (s !== null && s.length >= 0xffff) wide = true;
  const out = wide ? new Uint32Array(strings.length) : new Uint16Array(strings.length);
  const nullLength = wide ? 0xffffffff : 0xffff;
  for (let i = 0; i < strings.length; i++) out[i] = strings[i] === null ? nullLength : strings[i]!.length;
  return out;
}

export class GenerationCache<T, Packed = unknown> {
  /**
   * One entry per repository (the directory holding its builds), so a process that outlives many
   * rebuilds keeps the rows of the latest one only.
   */
  private readonly entries = new Map<string, { key: string; value: T }>();

  constructor(private readonly disk: string | null = null, private readonly codec: RowCodec<T, Packed> | null = null) {}

  /**
   * Returns the value kept for this index file at exactly this build and generation, and forgets it
   * (an update that fails half-way leaves nothing behind to trust); without one in this process, the
   * file a process wrote for that generation.
   */
  take(dbFile: string, buildId: string | undefined, generation: number): T | null {
    const e = this.entries.get(repoOf(dbFile));
    this.entries.delete(repoOf(dbFile));
    if (e && e.key === keyOf(dbFile, buildId, generation)) return e.value;
    return this.disk ? this.read(dbFile, buildId, generation) : null;
  }

  /**
   * Keeps a value for a generation; call only once that generation is committed. `toDisk: false` (a
   * long-running applier: cg watch, cg serve) keeps it in this process only and removes the files older
   * generations left, which no longer match: writing the rows after every update cost such a process
   * 10-80 ms an update for files only another process would read. The next process on its own reads
   * every row once and writes them again.
   */
  put(dbFile: string, buildId: string | undefined, generation: number, value: T, { toDisk = true }: { toDisk?: boolean } = {}): void {
    this.entries.set(repoOf(dbFile), { key: keyOf(dbFile, buildId, generation), value });
    if (!this.disk) return;
    if (toDisk) this.write(dbFile, buildId, generation, value);
    else this.removeFiles(dbFile, null);
  }

  private fileOf(dbFile: string, generation: number): string {
    return path.join(path.dirname(path.resolve(dbFile)), `${this.disk}-${generation}.v8`);
  }

  private header(dbFile: string, buildId: string | undefined, generation: number, crc: number): string {
    return JSON.stringify({ format: `cg-${this.disk}/${this.codec ? `columns-${this.codec.version}` : 1}`, cg: CG_VERSION, v8: process.versions.v8, db: path.basename(dbFile),
      build: buildId ?? '', generation, crc });
  }

  private read(dbFile: string, buildId: string | undefined, generation: number): T | null {
    try {
      const buf = fs.readFileSync(this.fileOf(dbFile, generation));
      const end = buf.indexOf(10);
      if (end < 0) return null;
      const body = buf.subarray(end + 1);
      if (buf.subarray(0, end).toString('utf8') !== this.header(dbFile, buildId, generation, zlib.crc32(body))) return null;
      const raw = v8.deserialize(body);
      return this.codec ? this.codec.unpack(raw as Packed) : (raw as T);
    } catch {
      return null;
    }
  }

  private write(dbFile: string, buildId: string | undefined, generation: number, value: T): void {
    const file = this.fileOf(dbFile, generation);
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      const body = v8.serialize(this.codec ? this.codec.pack(value) : value);
      fs.writeFileSync(tmp, Buffer.concat([Buffer.from(`${this.header(dbFile, buildId, generation, zlib.crc32(body))}\n`), body]));
      fs.renameSync(tmp, file);
      // Older generations' files go (this one stays until the next generation's is written).
      this.removeFiles(dbFile, path.basename(file));
    } catch {
      fs.rmSync(tmp, { force: true });
    }
  }

  /** This cache's files beside the database, but `keep` (and other writers' temporary files). */
  private removeFiles(dbFile: string, keep: string | null): void {
    const dir = path.dirname(path.resolve(dbFile));
    try {
      for (const name of fs.readdirSync(dir)) {
        if (name.startsWith(`${this.disk}-`) && name !== keep && !name.endsWith('.tmp')) fs.rmSync(path.join(dir, name), { force: true });
      }
    } catch {
      // A cache: a file left behind is ignored by its generation number.
    }
  }
}

function repoOf(dbFile: string): string {
  return path.dirname(path.dirname(path.resolve(dbFile)));
}

function keyOf(dbFile: string, buildId: string | undefined, generation: number): string {
  return `${path.resolve(dbFile)}\0${buildId ?? ''}\0${generation}`;
}
