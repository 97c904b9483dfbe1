import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import * as tar from 'tar';
import { CgError, errorMessage } from '../errors.js';

/**
 * The artifact's container: a gzip'd tar written so that the same members give the same bytes
 * (fixed member order, mode 0644, one fixed mtime, no owner or host fields, a gzip header without
 * time or OS: node-tar's `portable`), and read back refusing anything a snapshot never contains.
 */

export const MANIFEST = 'manifest.json';

/** Every member name a snapshot of this format may hold. Anything else is refused before it is written. */
const MEMBER = /^(manifest\.json|index\.db|vectors-\d+\.usearch(\.json)?)$/;

export interface Member {
  name: string;
  bytes: number;
  sha256: string;
}

export function sha256File(file: string): string {
  const hash = createHash('sha256');
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      if (!n) break;
      hash.update(buf.subarray(0, n));
    }
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

export function describeMember(dir: string, name: string): Member {
  const file = path.join(dir, name);
  return { name, bytes: fs.statSync(file).size, sha256: sha256File(file) };
}

/** Packs `names` (files in `dir`) in that order into `outFile`, atomically (temp file, then rename). */
export async function packArchive(dir: string, names: string[], outFile: string, mtime: Date): Promise<void> {
  for (const n of names) fs.chmodSync(path.join(dir, n), 0o644);
  const tmp = `${outFile}.${process.pid}.tmp`;
  try {
    await tar.create({ file: tmp, cwd: dir, gzip: { level: 6 }, portable: true, mtime, noDirRecurse: true, noPax: true }, names);
    fs.renameSync(tmp, outFile);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw new CgError('io', `Cannot write the snapshot ${outFile}: ${errorMessage(err)}`, 'Check free disk space and that the output folder is writable.');
  }
}

/** Why an archive is refused; each reason has its own message. */
export type Refusal = 'not_archive' | 'truncated' | 'escapes' | 'absolute' | 'link' | 'device' | 'duplicate' | 'unexpected'
  | 'order' | 'size' | 'bomb';

export function refused(file: string, reason: Refusal, detail: string): CgError {
  const notOurs = 'This is not a snapshot cg wrote; do not use it.';
  const what: Record<Refusal, [string, string]> = {
    not_archive: ['is not a gzip\'d tar archive', 'Pass a file written by `cg snapshot create`.'],
    truncated: ['is truncated or damaged', 'The download or copy was cut short: fetch the snapshot again, or run `cg index` to build from scratch.'],
    escapes: ['has a member that would be written outside the target folder', notOurs],
    absolute: ['has a member with an absolute path', notOurs],
    link: ['has a link member (cg snapshots hold regular files only)', notOurs],
    device: ['has a device, FIFO or other special-file member (cg snapshots hold regular files only)', notOurs],
    duplicate: ['holds the same member twice', notOurs],
    unexpected: ['has a member a cg snapshot never holds', 'This is not a snapshot cg wrote, or it was altered; do not use it.'],
    order: ['does not start with its manifest (cg writes manifest.json first)', notOurs],
    size: ['has a member whose size is not the one its manifest declares', 'It was altered after it was written; do not use it.'],
    bomb: ['would unpack to far more than a snapshot holds', `${notOurs} Nothing beyond the first bytes was unpacked.`],
  };
  const [message, hint] = what[reason];
  return new CgError('snapshot_invalid', `The snapshot ${file} ${message}: ${detail}`, hint, { reason });
}

/** A manifest is a few kilobytes; one larger than this is refused before it is read. */
export const MAX_MANIFEST_BYTES = 1 << 20;
/**
 * A snapshot's members (an SQLite database, a vector file) compress 2-4 times (sqlalchemy: 170 MB in
 * 60 MB); an archive that declares more than this many times its own size is a compression bomb.
 */
export const MAX_RATIO = 100;
/** Tar framing around the declared bytes: a 512-byte header per member, padding, the end blocks and record padding. */
const TAR_SLACK = 64 * 1024;
/** Free space left on the disk after unpacking, at least. */
const DISK_MARGIN = 64 * 1024 * 1024;

export interface Unpacked {
  /** Member names written into the target folder, in archive order. */
  names: string[];
  /** sha256 of each member, computed while it was written. */
  sha256: Map<string, string>;
}

/**
 * Unpacks into `dest` (an empty folder) without trusting the archive, in bounded time, memory and disk:
 *  - every header is checked before its data is written; only plain names are written (by cg, not by
 *    node-tar's extractor); links, devices, absolute or climbing paths stop the whole read;
 *  - the manifest must come first and be small; `declare` reads it (and refuses a newer format) and
 *    returns the size of every other member; members it does not declare, or of another size than
 *    declared, are refused at their header, before their data;
 *  - before any other member is written, the declared total must fit on the disk and be less than
 *    MAX_RATIO times the archive's size; decompression stops as soon as it produces more than the
 *    declared sizes plus the tar framing (a gzip stream that goes on past its tar is a bomb too);
 *  - data is streamed (16 KiB of input at a time, with backpressure), so memory stays flat whatever the sizes.
 */
export async function unpackArchive(file: string, dest: string, declare: (manifest: Buffer) => Map<string, number>): Promise<Unpacked> {
  checkGzipMagic(file);
  const archiveBytes = fs.statSync(file).size;
  const out: Unpacked = { names: [], sha256: new Map() };
  const seen = new Set<string>();
  let problem: CgError | null = null;
  let declared: Map<string, number> | null = null;
  let declaredTotal = 0;
  let roomChecked = false;
  // Decompressed bytes allowed: the manifest's header and body until it is read, then what it declares.
  let budget = 512 + MAX_MANIFEST_BYTES + TAR_SLACK;
  let produced = 0;
  const open = new Map<string, { fd: number; hash: ReturnType<typeof createHash> }>();
  const fail = (err: CgError) => {
    problem ??= err;
  };

  const onEntry = (entry: tar.ReadEntry) => {
    const name = entry.path;
    const bad = problem ?? headerProblem(file, entry, seen);
    seen.add(name);
    if (bad) {
      fail(bad);
      entry.resume();
      return;
    }
    if (!declared) {
      if (name !== MANIFEST) return (fail(refused(file, 'order', `${name} comes first`)), entry.resume());
      if (entry.size > MAX_MANIFEST_BYTES) return (fail(refused(file, 'bomb', `its manifest.json declares ${entry.size} bytes`)), entry.resume());
      if (entry.size === 0) return (fail(refused(file, 'truncated', 'its manifest.json is empty')), entry.resume());
      const chunks: Buffer[] = [];
      let got = 0;
      entry.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        got += chunk.length;
        if (got !== entry.size || problem) return;
        try {
          const text = Buffer.concat(chunks);
          fs.writeFileSync(path.join(dest, MANIFEST), text, { flag: 'wx', mode: 0o644 });
          out.names.push(MANIFEST);
          out.sha256.set(MANIFEST, createHash('sha256').update(text).digest('hex'));
          declared = declare(text);
          declaredTotal = [...declared.values()].reduce((a, b) => a + b, 0);
          budget = produced + declaredTotal + 512 * declared.size + TAR_SLACK;
        } catch (err) {
          fail(err instanceof CgError ? err : refused(file, 'truncated', errorMessage(err)));
        }
      });
      return;
    }
    if (!roomChecked) {
      // At the first member after the manifest, before its data: the declared sizes fit and are plausible.
      roomChecked = true;
      try {
        checkRoom(file, dest, declaredTotal, archiveBytes);
      } catch (err) {
        return (fail(err as CgError), entry.resume());
      }
    }
    if (!MEMBER.test(name)) return (fail(refused(file, 'unexpected', name)), entry.resume());
    const size = declared.get(name);
    if (size === undefined) return (fail(refused(file, 'unexpected', `${name} is not listed in its manifest`)), entry.resume());
    if (entry.size !== size) return (fail(refused(file, 'size', `${name} is ${entry.size} bytes in the archive; the manifest says ${size}`)), entry.resume());
    out.names.push(name);
    const sink = { fd: fs.openSync(path.join(dest, name), 'wx', 0o644), hash: createHash('sha256') };
    open.set(name, sink);
    entry.on('data', (chunk: Buffer) => {
      sink.hash.update(chunk);
      fs.writeSync(sink.fd, chunk);
    });
    entry.on('end', () => {
      fs.closeSync(sink.fd);
      open.delete(name);
      out.sha256.set(name, sink.hash.digest('hex'));
    });
  };

  const parser = new tar.Parser({ strict: true, onReadEntry: onEntry });
  const ended = new Promise<void>((resolve) => {
    parser.on('end', resolve);
    parser.on('error', (err: Error) => {
      fail(refused(file, 'truncated', errorMessage(err)));
      resolve();
    });
  });
  // zlib inflates each input chunk whole before the consumer can push back, and deflate expands up to
  // about 1,000 times: 16 KiB of compressed input is at most ~16 MiB of output in flight.
  const input = fs.createReadStream(file, { highWaterMark: 16 * 1024 });
  const gunzip = zlib.createGunzip({ chunkSize: 64 * 1024 });
  input.pipe(gunzip);
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      produced += chunk.length;
      if (produced > budget) {
        fail(declared ? refused(file, 'bomb', `it unpacks to more than the ${budget - TAR_SLACK} bytes its manifest declares`)
          : refused(file, 'bomb', `it unpacks to more than ${budget} bytes before its manifest ends`));
      }
      if (problem) break;
      if (!parser.write(chunk)) await new Promise((resolve) => parser.once('drain', resolve));
      if (problem) break;
    }
    if (!problem) {
      parser.end();
      await ended;
    }
  } catch (err) {
    fail(refused(file, 'truncated', errorMessage(err)));
  } finally {
    input.destroy();
    gunzip.destroy();
    for (const { fd } of open.values()) fs.closeSync(fd);
  }
  if (problem) throw problem;
  if (!out.names.length) throw refused(file, 'truncated', 'it holds no members');
  if (open.size) throw refused(file, 'truncated', `${[...open.keys()][0]} is cut short`);
  return out;
}

/** The declared sizes are plausible for the archive and fit on the disk, checked before anything but the manifest is written. */
function checkRoom(file: string, dest: string, total: number, archiveBytes: number): void {
  if (total > archiveBytes * MAX_RATIO) {
    throw refused(file, 'bomb', `its manifest declares ${total} bytes unpacked from ${archiveBytes} (more than ${MAX_RATIO} times the archive)`);
  }
  let free = Infinity;
  try {
    const st = fs.statfsSync(dest);
    free = st.bavail * st.bsize;
  } catch {
    /* no statfs here: the write itself will fail if the disk fills */
  }
  if (total + DISK_MARGIN > free) {
    throw new CgError('io', `Unpacking the snapshot ${file} needs ${mib(total)} in ${dest}; ${mib(free)} are free`,
      'Free some disk space (the restore also keeps the previous index until it is replaced), then try again.');
  }
}

function mib(bytes: number): string {
  return `${(bytes / 1048576).toFixed(1)} MiB`;
}

function headerProblem(file: string, entry: tar.ReadEntry, seen: Set<string>): CgError | null {
  const name = entry.path;
  if (entry.type === 'SymbolicLink' || entry.type === 'Link') return refused(file, 'link', `${name} -> ${entry.linkpath ?? '?'}`);
  if (entry.type !== 'File' && entry.type !== 'OldFile' && entry.type !== 'ContiguousFile') {
    return refused(file, entry.type === 'Directory' ? 'unexpected' : 'device', `${name} (${entry.type})`);
  }
  if (path.posix.isAbsolute(name) || path.win32.isAbsolute(name)) return refused(file, 'absolute', name);
  if (name.split(/[\\/]/).includes('..')) return refused(file, 'escapes', name);
  if (name.includes('/') || name.includes('\\')) return refused(file, 'unexpected', name);
  if (seen.has(name)) return refused(file, 'duplicate', name);
  return null;
}

function checkGzipMagic(file: string): void {
  const head = Buffer.alloc(2);
  let n: number;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      n = fs.readSync(fd, head, 0, 2, 0);
    } finally {
      fs.closeSync(fd);
    }
  } catch (err) {
    throw new CgError('not_found', `Cannot read the snapshot ${file}: ${errorMessage(err)}`, 'Check the path; `cg snapshot list` shows the snapshots in the snapshot folder.');
  }
  if (n < 2 || head[0] !== 0x1f || head[1] !== 0x8b) {
    throw refused(file, n === 0 ? 'truncated' : 'not_archive', n === 0 ? 'it is empty' : 'it does not start with the gzip signature');
  }
}
