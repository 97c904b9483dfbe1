import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
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
export type Refusal = 'not_archive' | 'truncated' | 'escapes' | 'absolute' | 'link' | 'device' | 'duplicate' | 'unexpected';

export function refused(file: string, reason: Refusal, detail: string): CgError {
  const what: Record<Refusal, [string, string]> = {
    not_archive: ['is not a gzip\'d tar archive', 'Pass a file written by `cg snapshot create`.'],
    truncated: ['is truncated or damaged', 'The download or copy was cut short: fetch the snapshot again, or run `cg index` to build from scratch.'],
    escapes: ['has a member that would be written outside the target folder', 'This is not a snapshot cg wrote; do not use it.'],
    absolute: ['has a member with an absolute path', 'This is not a snapshot cg wrote; do not use it.'],
    link: ['has a link member (cg snapshots hold regular files only)', 'This is not a snapshot cg wrote; do not use it.'],
    device: ['has a device, FIFO or other special-file member (cg snapshots hold regular files only)', 'This is not a snapshot cg wrote; do not use it.'],
    duplicate: ['holds the same member twice', 'This is not a snapshot cg wrote; do not use it.'],
    unexpected: ['has a member a cg snapshot never holds', 'This is not a snapshot cg wrote, or it was altered; do not use it.'],
  };
  const [message, hint] = what[reason];
  return new CgError('snapshot_invalid', `The snapshot ${file} ${message}: ${detail}`, hint, { reason });
}

export interface Unpacked {
  /** Member names written into the target folder, in archive order. */
  names: string[];
  /** sha256 of each member, computed while it was written. */
  sha256: Map<string, string>;
  /** Names the format does not know; the caller refuses them after reading the manifest's format version. */
  unknown: string[];
}

/**
 * Unpacks into `dest` (an empty folder) without trusting the archive: every header is checked before
 * its data is written, only plain names are written (by cg, not by node-tar's extractor), and members
 * that are links, devices, absolute or climbing paths stop the whole read.
 */
export async function unpackArchive(file: string, dest: string): Promise<Unpacked> {
  checkGzipMagic(file);
  const out: Unpacked = { names: [], sha256: new Map(), unknown: [] };
  let problem: CgError | null = null;
  const pending: Promise<void>[] = [];
  const onEntry = (entry: tar.ReadEntry) => {
    const name = entry.path;
    const bad = problem ?? headerProblem(file, entry, out);
    if (bad) {
      problem ??= bad;
      entry.resume();
      return;
    }
    if (!MEMBER.test(name)) {
      out.unknown.push(name);
      entry.resume();
      return;
    }
    out.names.push(name);
    const hash = createHash('sha256');
    const fd = fs.openSync(path.join(dest, name), 'wx', 0o644);
    pending.push(new Promise<void>((resolve) => {
      entry.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        fs.writeSync(fd, chunk);
      });
      entry.on('end', () => {
        fs.closeSync(fd);
        out.sha256.set(name, hash.digest('hex'));
        resolve();
      });
    }));
  };
  try {
    await tar.list({ file, strict: true, onReadEntry: onEntry });
    await Promise.all(pending);
  } catch (err) {
    if (problem) throw problem;
    throw refused(file, 'truncated', errorMessage(err));
  }
  if (problem) throw problem;
  if (!out.names.length && !out.unknown.length) throw refused(file, 'truncated', 'it holds no members');
  return out;
}

function headerProblem(file: string, entry: tar.ReadEntry, seen: Unpacked): CgError | null {
  const name = entry.path;
  if (entry.type === 'SymbolicLink' || entry.type === 'Link') return refused(file, 'link', `${name} -> ${entry.linkpath ?? '?'}`);
  if (entry.type !== 'File' && entry.type !== 'OldFile' && entry.type !== 'ContiguousFile') {
    return refused(file, entry.type === 'Directory' ? 'unexpected' : 'device', `${name} (${entry.type})`);
  }
  if (path.posix.isAbsolute(name) || path.win32.isAbsolute(name)) return refused(file, 'absolute', name);
  if (name.split(/[\\/]/).includes('..')) return refused(file, 'escapes', name);
  if (name.includes('/') || name.includes('\\')) return refused(file, 'unexpected', name);
  if (seen.names.includes(name) || seen.unknown.includes(name)) return refused(file, 'duplicate', name);
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
