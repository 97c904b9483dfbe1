import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type Database from 'better-sqlite3';
import type { LoggedCommit } from '../repo/git.js';
import { Allowlist } from '../secrets/allowlist.js';
import { scanSecrets } from '../secrets/scan.js';
import { cachedForVersion } from '../store/version-cache.js';
import { tokenize } from './tokenize.js';

/**
 * Similar past commits (BugLocator's "similar bug reports"): a task reads like the messages of the
 * commits that changed the same files before. The index keeps the newest PAST_COMMITS non-merge commits
 * (their messages' search terms and the files they changed, table past_commits); a query scores their
 * messages by BM25 and the VOTERS most similar vote for the files they changed. The learned ranker reads
 * the votes as features (src/retrieve/features.ts). Stop 13 tried the votes as a fixed-weight signal in
 * the fusion (a coin toss on the evaluation sets); as features fitted on the training corpus they lift
 * out-of-fold recall@1 in every language (train/README.md). 1,000 commits and 50 voters are stop 13's
 * choice, not tuned since.
 */
export const PAST_COMMITS = 1000;
export const VOTERS = 50;

/**
 * A message's terms kept at most: a commit that pastes a whole log or generated listing into its message
 * (dtolnay/syn has one of 166,853 terms) would otherwise weigh on every message's length normalisation and
 * on the index's size. 7 of the training corpus's 143,449 messages are longer.
 */
export const MESSAGE_TERMS = 5000;

/** BM25 over commit messages: the textbook parameters (messages are short and alike in length). */
const K1 = 1.2;
const B = 0.75;

/** A commit as the index keeps it. */
export interface PastCommit {
  /** Its message's search terms in order, repeats kept; lines' credentials blanked out first. */
  terms: string[];
  /** The files it changed, relative to the root. */
  paths: string[];
}

/**
 * Logged commits as the index keeps them: each message's terms, never a credential it quotes (blanked
 * out before the terms are read). The messages are scanned as one text: the scanner's keyword filter
 * then runs once, not once a message (gin's 1,000 messages: 8 ms against 11).
 */
export function pastCommitsOf(log: LoggedCommit[]): PastCommit[] {
  const starts: number[] = [];
  let text = '';
  for (const c of log) {
    starts.push(text.length);
    text += `${c.message}\n\n`;
  }
  const found = scanSecrets('.git/COMMIT_EDITMSG', text, Allowlist.empty());
  for (const f of found.sort((a, b) => b.start - a.start)) text = `${text.slice(0, f.start)}${' '.repeat(f.end - f.start)}${text.slice(f.end)}`;
  return log.map((c, i) => ({ terms: tokenize(text.slice(starts[i], starts[i] + c.message.length)).slice(0, MESSAGE_TERMS), paths: c.files }));
}

/** Commits a stored row holds at most (a full build's rows; an update adds a row of the commits HEAD gained). */
const ROW_COMMITS = 100;

/**
 * Replaces the kept commits by `commits` (newest first; the first PAST_COMMITS kept), deflated in rows of
 * ROW_COMMITS: the same paths and words recur from commit to commit, so they take a fifth of the space of
 * a row a commit (gin's 1,000: 45 KB against 250).
 */
export function storePastCommits(db: Database.Database, commits: PastCommit[]): void {
  db.prepare('DELETE FROM past_commits').run();
  const kept = commits.slice(0, PAST_COMMITS);
  const rows = Math.ceil(kept.length / ROW_COMMITS);
  // Slots ascend with time: the newest row has the highest.
  for (let k = 0; k < rows; k++) insertRow(db, rows - 1 - k, kept.slice(k * ROW_COMMITS, (k + 1) * ROW_COMMITS));
}

function insertRow(db: Database.Database, slot: number, commits: PastCommit[]): void {
  const text = commits.map((c) => [c.terms.join(' '), ...c.paths].join('\t')).join('\n');
  db.prepare('INSERT INTO past_commits (slot, commits, data) VALUES (?, ?, ?)').run(slot, commits.length, deflateRawSync(text));
}

/** The kept commits, newest first. */
export function readPastCommits(db: Database.Database): PastCommit[] {
  const out: PastCommit[] = [];
  for (const data of db.prepare('SELECT data FROM past_commits ORDER BY slot DESC').pluck().all() as Buffer[]) {
    for (const line of inflateRawSync(data).toString('utf8').split('\n')) {
      const [terms, ...paths] = line.split('\t');
      out.push({ terms: terms ? terms.split(' ') : [], paths });
      if (out.length === PAST_COMMITS) return out;
    }
  }
  return out;
}

/**
 * After HEAD moved: the new commits (newest first) go in a row of their own before those kept, and the
 * rows wholly past the newest PAST_COMMITS go; what is read back is what a full build of HEAD keeps
 * (for a history without rewrites). After a rewritten history (a rebase) the commits it replaced stay
 * until they age out; a full build reads the history afresh.
 */
export function addPastCommits(db: Database.Database, added: PastCommit[]): void {
  if (!added.length) return;
  const slots = db.prepare('SELECT slot, commits FROM past_commits ORDER BY slot DESC').raw().all() as [number, number][];
  insertRow(db, (slots[0]?.[0] ?? -1) + 1, added.slice(0, PAST_COMMITS));
  let before = Math.min(added.length, PAST_COMMITS);
  const drop = db.prepare('DELETE FROM past_commits WHERE slot = ?');
  for (const [slot, n] of slots) {
    if (before >= PAST_COMMITS) drop.run(slot);
    before += n;
  }
}

/** Past commits ready to score: each message's term counts and length. */
export interface History {
  commits: { tf: Map<string, number>; len: number; paths: string[] }[];
  avgLen: number;
}

export function historyOf(commits: PastCommit[]): History {
  let total = 0;
  const out = commits.map((c) => {
    const tf = new Map<string, number>();
    for (const t of c.terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    total += c.terms.length;
    return { tf, len: c.terms.length, paths: c.paths };
  });
  return { commits: out, avgLen: out.length ? total / out.length : 1 };
}

/** The index's past commits, read once for as long as the index does not change. */
export function indexHistory(db: Database.Database): History {
  return cachedForVersion(db, 'history:past-commits', () => historyOf(readPastCommits(db)));
}

/** What the most similar past commits say about files, by path. */
export interface HistoryEvidence {
  /** Per file: the voters' similarities, each divided by how many files its commit changed. */
  vote: Map<string, number>;
  /** Per file: the similarity of the most similar voter that changed it. */
  first: Map<string, number>;
  /** Per file: how many of the 10 most similar commits changed it. */
  top10: Map<string, number>;
  /** The most similar commit's similarity (0: no message shares a term with the task). */
  best: number;
}

/** BM25 of the task against every kept message; the VOTERS best (ties: the newer first) vote. */
export function historyEvidence(h: History, text: string): HistoryEvidence {
  const q = new Map<string, number>();
  for (const t of tokenize(text)) q.set(t, (q.get(t) ?? 0) + 1);
  const out: HistoryEvidence = { vote: new Map(), first: new Map(), top10: new Map(), best: 0 };
  const n = h.commits.length;
  if (!n || !q.size) return out;
  const df = new Map<string, number>();
  for (const c of h.commits) for (const t of q.keys()) if (c.tf.has(t)) df.set(t, (df.get(t) ?? 0) + 1);
  const idf = new Map([...df].map(([t, d]) => [t, Math.log(1 + (n - d + 0.5) / (d + 0.5))]));
  const sims: [number, number][] = [];
  for (const [i, c] of h.commits.entries()) {
    let s = 0;
    for (const [t, qn] of q) {
      const f = c.tf.get(t);
      if (f) s += qn * idf.get(t)! * (f * (K1 + 1)) / (f + K1 * (1 - B + B * c.len / h.avgLen));
    }
    if (s > 0) sims.push([i, s]);
  }
  sims.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  out.best = sims[0]?.[1] ?? 0;
  for (const [k, [i, s]] of sims.slice(0, VOTERS).entries()) {
    const paths = h.commits[i].paths;
    for (const p of paths) {
      out.vote.set(p, (out.vote.get(p) ?? 0) + s / paths.length);
      if (!out.first.has(p)) out.first.set(p, s);
      if (k < 10) out.top10.set(p, (out.top10.get(p) ?? 0) + 1);
    }
  }
  return out;
}
