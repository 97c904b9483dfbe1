import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { CgError, errorMessage } from '../errors.js';
import { rootCommits } from '../repo/git.js';
import { MANIFEST, refused, unpackArchive } from './archive.js';
import { readManifest, type Manifest } from './manifest.js';
import { SNAPSHOT_DB } from './canonical.js';
import { makeStaging } from './staging.js';
import { refuseStoredSecrets } from '../secrets/database.js';

export interface Verified {
  file: string;
  manifest: Manifest;
  /** The unpacked, checked members; the caller removes it (or moves its files into place). */
  dir: string;
}

/**
 * Unpacks a snapshot into a new temporary folder (inside `parent`, default the system's) and checks
 * everything before anyone uses it: the archive itself, the manifest's format version, that the
 * members are exactly those the manifest lists with the same sha256, that the database opens and
 * passes SQLite's quick check and holds no credential (src/secrets/database.ts), and, given a
 * repository, that the snapshot is of that repository.
 */
export async function unpackVerified(file: string, opts: { root?: string; parent?: string } = {}): Promise<Verified> {
  const dir = makeStaging(opts.parent ?? os.tmpdir());
  try {
    const unpacked = await unpackArchive(file, dir);
    if (!unpacked.names.includes(MANIFEST)) {
      throw unpacked.unknown.length ? refused(file, 'unexpected', unpacked.unknown[0]) : refused(file, 'truncated', 'it has no manifest.json');
    }
    const manifest = readManifest(file, dir);
    if (unpacked.unknown.length) throw refused(file, 'unexpected', unpacked.unknown[0]);
    checkMembers(file, manifest, unpacked.names, unpacked.sha256);
    checkDatabase(file, path.join(dir, SNAPSHOT_DB));
    refuseStoredSecrets(file, path.join(dir, SNAPSHOT_DB), opts.root);
    if (opts.root) checkRepository(file, manifest, opts.root);
    return { file, manifest, dir };
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** Verifies and cleans up: for `cg snapshot verify`. */
export async function verifySnapshot(file: string, root?: string): Promise<Manifest> {
  const v = await unpackVerified(file, { root });
  fs.rmSync(v.dir, { recursive: true, force: true });
  return v.manifest;
}

function mismatch(file: string, detail: string): CgError {
  return new CgError('snapshot_invalid', `The snapshot ${file} fails its checksums: ${detail}`,
    'It was altered or damaged after it was written: fetch it again, or run `cg index` to build from scratch.', { reason: 'checksum' });
}

function checkMembers(file: string, m: Manifest, names: string[], sha: Map<string, string>): void {
  const listed = new Set(m.members.map((x) => x.name));
  for (const n of names) if (n !== MANIFEST && !listed.has(n)) throw mismatch(file, `${n} is not listed in the manifest`);
  for (const x of m.members) {
    const got = sha.get(x.name);
    if (got === undefined) throw mismatch(file, `${x.name} is listed in the manifest but missing from the archive`);
    if (got !== x.sha256) throw mismatch(file, `${x.name} has sha256 ${got.slice(0, 12)}…, the manifest says ${String(x.sha256).slice(0, 12)}…`);
  }
  if (!listed.has(SNAPSHOT_DB)) throw mismatch(file, `the manifest lists no ${SNAPSHOT_DB}`);
}

function checkDatabase(file: string, dbFile: string): void {
  try {
    const db = new Database(dbFile, { readonly: true, fileMustExist: true });
    try {
      const ok = db.pragma('quick_check', { simple: true });
      if (ok !== 'ok') throw new Error(String(ok));
    } finally {
      db.close();
    }
  } catch (err) {
    throw new CgError('snapshot_invalid', `The database in the snapshot ${file} is damaged: ${errorMessage(err)}`,
      'Fetch the snapshot again, or run `cg index` to build from scratch.', { reason: 'database' });
  }
}

/** A snapshot shares at least one root commit with the repository, or it is of another repository. */
function checkRepository(file: string, m: Manifest, root: string): void {
  const ours = rootCommits(root);
  const theirs = m.repository?.rootCommits ?? [];
  if (!ours.length || !theirs.length) return; // no history to compare (not a git checkout): the commit check decides
  if (!theirs.some((c) => ours.includes(c))) {
    throw new CgError('snapshot_invalid',
      `The snapshot ${file} is of another repository (its root commit ${theirs[0].slice(0, 10)} is not in this repository's history)`,
      'Use a snapshot made from this repository, or run `cg index` to build the index here.', { reason: 'other_repository' });
  }
}
