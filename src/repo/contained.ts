import fs from 'node:fs';
import path from 'node:path';

/**
 * Reading a repository file without leaving the repository. Every read of a file's content, at index
 * time (extraction, content hashes) and at answer time (snippets, bundles), goes through
 * readContained: a path is read only when it resolves, link by link, to itself inside the repository
 * (no symbolic link anywhere on the way, not even one to another file inside: the walk indexes no
 * link, so a link found later was put there after indexing), and is a regular file within the size
 * limit. A tracked file swapped for a link to `/etc/passwd`, or a directory swapped for a link to
 * `/home`, after the index was built is refused with its reason instead of being read.
 */
export type RefusalReason =
  | 'outside'          // resolves to a path outside the repository (through a link, or a path that climbs out)
  | 'symlink'          // reached through a symbolic link that stays inside the repository
  | 'not_regular_file' // a FIFO, socket, device or directory now
  | 'too_large'
  | 'missing'
  | 'unreadable';

export type ContainedRead = { ok: true; data: Buffer } | { ok: false; reason: RefusalReason; detail: string };

/** The realpath of each root seen, so a read costs one realpath of the file, not two. */
const realRoots = new Map<string, string>();

function realRoot(root: string): string {
  let real = realRoots.get(root);
  if (real === undefined) {
    real = fs.realpathSync.native(root);
    realRoots.set(root, real);
  }
  return real;
}

/**
 * The bytes of `rel` (repo-relative, POSIX) under `root`, or why it was not read. `maxBytes` is checked
 * on the open file before anything is read. O_NOFOLLOW and O_NONBLOCK make the open itself refuse a
 * last-moment link and never wait on a FIFO; the path is resolved again after reading, so a directory
 * swapped for a link between the checks and the read is caught as well.
 */
export function readContained(root: string, rel: string, maxBytes: number): ContainedRead {
  const refuse = (reason: RefusalReason, detail: string): ContainedRead => ({ ok: false, reason, detail });
  if (!isRepoPath(rel)) return refuse('outside', `${JSON.stringify(rel)} is not a path inside the repository`);
  let base: string;
  try {
    base = realRoot(root);
  } catch (err) {
    return refuse('unreadable', `the repository root cannot be resolved (${(err as Error).message})`);
  }
  const expected = path.join(base, ...rel.split('/'));
  const where = resolved(path.join(root, rel), expected, base);
  if (where) return where.reason === 'missing' ? refuse('missing', 'it no longer exists') : refuse(where.reason, where.detail);
  let fd: number;
  try {
    fd = fs.openSync(expected, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return refuse('symlink', 'it became a symbolic link while it was being read');
    if (code === 'ENOENT') return refuse('missing', 'it no longer exists');
    return refuse('unreadable', (err as Error).message);
  }
  let data: Buffer;
  let ino: number;
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return refuse('not_regular_file', 'it is no longer a regular file');
    if (st.size > maxBytes) return refuse('too_large', `${st.size} bytes, over the limit of ${maxBytes}`);
    ino = st.ino;
    data = readAll(fd, st.size, maxBytes);
    if (data.length > maxBytes) return refuse('too_large', `over the limit of ${maxBytes} bytes`);
  } catch (err) {
    return refuse('unreadable', (err as Error).message);
  } finally {
    fs.closeSync(fd);
  }
  // A directory on the way swapped for a link after the first resolution would have been followed by open().
  const again = resolved(path.join(root, rel), expected, base);
  if (again) return refuse(again.reason === 'missing' ? 'missing' : again.reason, again.detail);
  try {
    if (fs.statSync(expected).ino !== ino) return refuse('unreadable', 'it was replaced while it was being read');
  } catch {
    return refuse('missing', 'it no longer exists');
  }
  return { ok: true, data };
}

/**
 * Whether the directory `dirRel` (repo-relative, '' for the root) is reached through a symbolic link:
 * the walk never enters one, so nothing under it is indexed, whichever way its paths arrive (a hook's
 * diff, `cg notify`). False for a directory that does not exist.
 */
export function throughLink(root: string, dirRel: string): boolean {
  if (!dirRel) return false;
  try {
    const base = realRoot(root);
    return fs.realpathSync.native(path.join(root, dirRel)) !== path.join(base, ...dirRel.split('/'));
  } catch {
    return false;
  }
}

/**
 * Whether `rel` (repo-relative) leads outside the repository through a symbolic link on its way: the
 * nearest part of it that exists resolves to a path outside. A path that does not exist yet (a deleted
 * file) is judged by its folder.
 */
export function leadsOutside(root: string, rel: string): boolean {
  let base: string;
  try {
    base = realRoot(root);
  } catch {
    return false;
  }
  for (let p = rel; p; p = p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '') {
    let real: string;
    try {
      real = fs.realpathSync.native(path.join(root, p));
    } catch {
      continue; // not there: its folder decides
    }
    return real !== base && !real.startsWith(base + path.sep);
  }
  return false;
}

/** A repo-relative POSIX path that names something inside: no empty, `.` or `..` part, not absolute, no NUL or backslash. */
export function isRepoPath(rel: string): boolean {
  if (!rel || rel.includes('\0') || rel.includes('\\') || rel.startsWith('/')) return false;
  return rel.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

/** Null when `abs` resolves to `expected` (no link on the way); else why not. */
function resolved(abs: string, expected: string, base: string): { reason: RefusalReason; detail: string } | null {
  let real: string;
  try {
    real = fs.realpathSync.native(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { reason: 'missing', detail: 'it no longer exists' };
    return { reason: 'unreadable', detail: (err as Error).message };
  }
  if (real === expected) return null;
  const inside = real.startsWith(base + path.sep);
  return inside
    ? { reason: 'symlink', detail: `it is reached through a symbolic link (to ${path.relative(base, real).split(path.sep).join('/')})` }
    : { reason: 'outside', detail: 'it is reached through a symbolic link to a path outside the repository' };
}

/** Reads an open file to its end, stopping one byte past `maxBytes` (a file may grow after fstat). */
function readAll(fd: number, size: number, maxBytes: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  let buf = Buffer.allocUnsafe(Math.min(Math.max(size, 4096), maxBytes + 1));
  for (;;) {
    const n = fs.readSync(fd, buf, 0, Math.min(buf.length, maxBytes + 1 - total), null);
    if (n === 0) break;
    chunks.push(buf.subarray(0, n));
    total += n;
    if (total > maxBytes) break;
    buf = Buffer.allocUnsafe(Math.min(65536, maxBytes + 1 - total));
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total);
}
