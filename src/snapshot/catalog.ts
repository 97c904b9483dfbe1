import fs from 'node:fs';
import path from 'node:path';
import { CgError } from '../errors.js';
import { commitsAhead, isTracked } from '../repo/git.js';
import { ARTIFACT_RE } from './manifest.js';

/**
 * The snapshots in a folder, known by name alone (`<commit>-<configId>.tar.gz`), and how a command's
 * argument picks one: an ID (a name in the folder, with or without `.tar.gz`, or a unique prefix of
 * one), a FILE (any path to an artifact), or `latest` / nothing (the snapshot of the target commit or
 * of its nearest ancestor).
 */
export interface Listed {
  id: string;
  file: string;
  commit: string;
  configId: string;
  bytes: number;
}

export function listSnapshots(dir: string): Listed[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((n) => ARTIFACT_RE.test(n)).sort().map((n) => {
    const [, commit, configId] = ARTIFACT_RE.exec(n)!;
    const file = path.join(dir, n);
    return { id: n.slice(0, -'.tar.gz'.length), file, commit, configId, bytes: fs.statSync(file).size };
  });
}

/** A FILE argument (it exists as given) or an ID in `dir`. */
export function findSnapshot(dir: string, ref: string): string {
  if (fs.existsSync(ref) && fs.statSync(ref).isFile()) return path.resolve(ref);
  const listed = listSnapshots(dir);
  const bare = ref.replace(/\.tar\.gz$/, '');
  const matches = listed.filter((s) => s.id === bare || s.id.startsWith(bare));
  if (matches.length === 1 || matches.some((s) => s.id === bare)) return (matches.find((s) => s.id === bare) ?? matches[0]).file;
  if (matches.length > 1) {
    throw new CgError('ambiguous', `"${ref}" names ${matches.length} snapshots in ${dir}`, `Use more of the id: ${matches.map((s) => s.id).join(', ')}`);
  }
  throw new CgError('not_found', `No snapshot "${ref}": not a file, and no snapshot in ${dir} has that id`,
    '`cg snapshot list` shows the snapshots there; `cg snapshot create` makes one.');
}

export interface Picked extends Listed {
  /** Commits between the snapshot and the target (0: the target itself). */
  behind: number;
}

/**
 * The snapshot of `target` or of its nearest ancestor, preferring `configId` (a snapshot of another
 * configuration would be rebuilt anyway). Null when no snapshot is of an ancestor.
 */
export function nearestSnapshot(root: string, dir: string, target: string, configId: string | null,
  skip: (s: Listed) => boolean = () => false): Picked | null {
  let best: Picked | null = null;
  for (const s of listSnapshots(dir)) {
    if (skip(s)) continue;
    const behind = commitsAhead(root, s.commit, target);
    if (behind === null) continue;
    // Another configuration's snapshot would be rebuilt on catch-up: the nearest of ours wins over it.
    const other = (x: Listed) => (configId !== null && x.configId !== configId ? 1 : 0);
    const better = !best || other(s) < other(best) || (other(s) === other(best) && behind < best.behind);
    if (better) best = { ...s, behind };
  }
  return best;
}

/**
 * Set to 1 to let cg pick, by itself, snapshots that came with the repository's history (committed to
 * it): the automatic restore of a query that finds no index, and `cg snapshot restore` without an ID.
 * An environment variable, not a configuration key: a repository can commit a configuration file, not
 * the environment of the person who clones it.
 */
export const TRUST_COMMITTED_ENV = 'CG_TRUST_COMMITTED_SNAPSHOTS';

export interface NearestTrusted {
  picked: Picked | null;
  /** Snapshots passed over because they are tracked in git (so anyone who can commit could have put them there). */
  committed: Listed[];
}

/**
 * nearestSnapshot among the snapshots cg may pick by itself: a snapshot tracked in git arrived through
 * the repository's history, and whoever can push a commit could have made it, so it is used only when
 * the user named it or set CG_TRUST_COMMITTED_SNAPSHOTS=1 (and then with every check of verify.ts).
 */
export function nearestTrustedSnapshot(root: string, dir: string, target: string, configId: string | null): NearestTrusted {
  const committed: Listed[] = [];
  const trust = process.env[TRUST_COMMITTED_ENV] === '1';
  const picked = nearestSnapshot(root, dir, target, configId, (s) => {
    if (trust || !isTracked(root, s.file)) return false;
    committed.push(s);
    return true;
  });
  return { picked, committed };
}

/** What to tell a user whose only snapshots came with the repository's history. */
export function committedHint(committed: Listed[]): string {
  const ids = committed.map((s) => s.id).join(', ');
  return `${committed.length === 1 ? 'The snapshot' : 'The snapshots'} ${ids} came with the repository's history (tracked in git), `
    + `so cg does not restore ${committed.length === 1 ? 'it' : 'them'} by itself. Run \`cg index\` to build the index; or, if you trust `
    + `whoever committed it, \`cg snapshot restore ID\` (or set ${TRUST_COMMITTED_ENV}=1).`;
}

/** Keeps the `keep` snapshots of the newest commits (by position in `root`'s history when known, else file time). */
export function pruneSnapshots(root: string, dir: string, keep: number): { kept: Listed[]; removed: Listed[] } {
  const listed = listSnapshots(dir);
  const rank = (s: Listed) => {
    const ahead = commitsAhead(root, s.commit, 'HEAD');
    return ahead ?? Number.MAX_SAFE_INTEGER - fs.statSync(s.file).mtimeMs / 1000;
  };
  const ordered = listed.map((s) => ({ s, r: rank(s) })).sort((a, b) => a.r - b.r || (a.s.id < b.s.id ? -1 : 1)).map((x) => x.s);
  const kept = ordered.slice(0, keep);
  const removed = ordered.slice(keep);
  for (const s of removed) fs.rmSync(s.file, { force: true });
  return { kept, removed };
}
