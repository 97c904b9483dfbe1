import path from 'node:path';
import type Database from 'better-sqlite3';
import type { TermStats } from './lexical.js';
import { codeMentions, isPeripheral, queryTerms, type RankedFile } from './rank.js';
import { historyEvidence, indexHistory, type History } from './history.js';
import { tokenize } from './tokenize.js';
import type { VectorMatches } from './vectors.js';
import { cachedForVersion } from '../store/version-cache.js';

/**
 * The evidence the learned ranker (src/retrieve/ranker.ts) reads about each of the fused ranking's best
 * files: the fusion's own signals and ranks, plus what the fusion cannot weigh by a constant (how much
 * of the task's vocabulary a file, its path and its definitions hold; its size, place in the graph and
 * history; whether its neighbours rank well too; how much the past commits whose messages read like the
 * task changed it, src/retrieve/history.ts). The same function runs at query time and when the
 * training corpus is dumped (train/dump-features.mjs), so the model sees exactly what it was fitted on.
 * Changing a feature's meaning or order means refitting the model (the model file names its features,
 * and a model whose names differ from FEATURES is refused).
 */
export const FEATURES = [
  'q_terms', 'q_mentions',
  'fused_rel', 'fused_rank', 'lex_rel', 'lex_rank', 'vec_rank',
  'file', 'defs', 'unit', 'mention', 'vector', 'cosine', 'pagerank',
  'coverage', 'path_cover', 'name_in_query', 'defname_cover', 'units_matched', 'unit_second',
  'peripheral', 'hub_file', 'log_tokens', 'log_symbols', 'in_degree', 'neighbour_support', 'age_days', 'commits', 'depth',
  'hist_vote', 'hist_first', 'hist_top10', 'hist_vote_raw',
] as const;

export type FeatureName = (typeof FEATURES)[number];

/** Files of the fused ranking the learned ranker re-orders; the rest keep the fusion's order below them. */
export const RERANK_DEPTH = 40;

export interface Candidate {
  file: RankedFile;
  features: Float64Array;
}

/** Rank positions past the candidates a signal found count as this far down. */
const ABSENT_RANK = Math.log1p(1000);

// Files that mostly re-export or wire a package together: they share every word with a task and are rarely where a change is made.
const HUB_FILES = /^(__init__\.py|index\.[cm]?[jt]sx?|mod\.rs|lib\.rs|main\.rs|main\.go|doc\.go|package\.swift|exports\.swift)$/i;

const ln = Math.log1p;

/** What a file contributes to the features whatever the task: the same until the index changes. */
interface FileFacts {
  newest: number;
  /** Its definitions' names (modules aside), in the order they were written. */
  names: Map<number, string[]>;
  /** How many calls and imports from other files reach its definitions. */
  inDegree: Map<number, number>;
  /** The other files its calls and imports reach, each once, in the order of its first edge to it. */
  callees: Map<number, number[]>;
}

/**
 * The files' FileFacts, read once per file for as long as the index does not change (cachedForVersion):
 * the fused ranking's first files repeat from task to task (a repository's hubs), and reading their
 * in-degree and edges per query was a fifth of a query's time on Go's standard library. The values
 * are those the per-query statements gave (same rows, same order).
 */
function fileFacts(db: Database.Database, ids: number[]): FileFacts {
  const facts = cachedForVersion(db, 'features:files', (): FileFacts => ({
    newest: (db.prepare('SELECT MAX(last_commit) FROM files').pluck().get() as number | null) ?? 0,
    names: new Map(), inDegree: new Map(), callees: new Map(),
  }));
  const missing = ids.filter((id) => !facts.names.has(id));
  if (missing.length) {
    const json = JSON.stringify(missing);
    for (const id of missing) {
      facts.names.set(id, []);
      facts.inDegree.set(id, 0);
      facts.callees.set(id, []);
    }
    for (const [f, name] of db.prepare(`SELECT file_id, name FROM symbols WHERE kind != 'module' AND file_id IN (SELECT value FROM json_each(?))
        ORDER BY file_id, id`).raw().all(json) as [number, string][]) facts.names.get(f)!.push(name);
    for (const [f, n] of db.prepare(`SELECT d.file_id, COUNT(*) FROM symbols d JOIN edges e ON e.dst_id = d.id
        WHERE d.file_id IN (SELECT value FROM json_each(?)) AND e.kind IN ('calls', 'imports') AND e.file_id != d.file_id GROUP BY d.file_id`).raw()
      .all(json) as [number, number][]) facts.inDegree.set(f, n);
    const seen = new Set<string>();
    for (const [a, b] of db.prepare(`SELECT e.file_id, d.file_id FROM edges e JOIN symbols d ON d.id = e.dst_id
        WHERE e.kind IN ('calls', 'imports') AND e.file_id IN (SELECT value FROM json_each(?)) AND e.file_id != d.file_id
        ORDER BY e.file_id, e.rowid`).raw().all(json) as [number, number][]) {
      const key = `${a}:${b}`;
      if (seen.has(key)) continue;
      seen.add(key);
      facts.callees.get(a)!.push(b);
    }
  }
  return facts;
}

/**
 * Feature vectors of the fused ranking's first RERANK_DEPTH files, in the fused order. `history`: the
 * past commits to read (default the index's; the training dump gives each task the commits before it).
 */
export function candidateFeatures(db: Database.Database, text: string, input: {
  lexical: RankedFile[]; fused: RankedFile[]; vectors: VectorMatches; stats: TermStats; history?: History;
}): Candidate[] {
  const top = input.fused.slice(0, RERANK_DEPTH);
  if (!top.length) return [];
  const ids = top.map((r) => r.fileId);
  const idJson = JSON.stringify(ids);
  const q = queryTerms(text);
  const idf = input.stats.idf;
  // Terms no file holds get the largest idf seen: a word of the task that the code lacks still counts as missed.
  const maxIdf = Math.max(1, ...idf.values());
  const idfOf = (t: string) => idf.get(t) ?? maxIdf;
  let queryIdf = 0;
  for (const t of q.keys()) queryIdf += idfOf(t);
  queryIdf = queryIdf || 1;
  const share = (terms: Iterable<string>) => {
    let s = 0;
    for (const t of new Set(terms)) if (q.has(t)) s += idfOf(t);
    return s / queryIdf;
  };

  const lexRank = new Map(input.lexical.map((r, i) => [r.fileId, i]));
  const lexTop = input.lexical[0]?.score || 1;
  const lexScore = new Map(input.lexical.map((r) => [r.fileId, r.score / lexTop]));
  const vecRank = new Map([...input.vectors.files].sort((a, b) => b[1] - a[1]).map(([id], i) => [id, i]));
  const fusedTop = top[0].score || 1;

  const facts = new Map((db.prepare(`SELECT id, tokens, last_commit, commits FROM files WHERE id IN (SELECT value FROM json_each(?))`).raw()
    .all(idJson) as [number, number, number | null, number][]).map(([id, tokens, last, commits]) => [id, { tokens, last, commits }]));
  const known = fileFacts(db, ids);
  const newest = known.newest;
  const names = known.names;
  const inDegree = known.inDegree;
  // Edges between two candidates, either way: a file the other good candidates call or import is likelier involved.
  // Pairs by calling file (ascending id), then in the order its edges were written, each pair once.
  const candidate = new Set(ids);
  const links: [number, number][] = [];
  for (const a of [...candidate].sort((x, y) => x - y)) for (const b of known.callees.get(a)!) if (candidate.has(b)) links.push([a, b]);
  const fusedRel = new Map(top.map((r) => [r.fileId, r.score / fusedTop]));
  const support = new Map<number, number>();
  const seenPair = new Set<string>();
  for (const [a, b] of links) {
    const key = a < b ? `${a}:${b}` : `${b}:${a}`;
    if (seenPair.has(key)) continue;
    seenPair.add(key);
    support.set(a, (support.get(a) ?? 0) + fusedRel.get(b)!);
    support.set(b, (support.get(b) ?? 0) + fusedRel.get(a)!);
  }
  let maxUnit = 0;
  for (const r of input.lexical) if (r.units[0]) maxUnit = Math.max(maxUnit, r.units[0].score);

  const past = historyEvidence(input.history ?? indexHistory(db), text);
  let maxVote = 0;
  for (const r of top) maxVote = Math.max(maxVote, past.vote.get(r.path) ?? 0);

  const qTerms = ln(q.size);
  const qMentions = ln(codeMentions(text).size);
  return top.map((r, i) => {
    const f = facts.get(r.fileId);
    const base = path.posix.basename(r.path);
    const stemTerms = tokenize(base.replace(/\.[^.]+$/, ''));
    const defNames = names.get(r.fileId) ?? [];
    const v: Record<FeatureName, number> = {
      q_terms: qTerms,
      q_mentions: qMentions,
      fused_rel: r.score / fusedTop,
      fused_rank: ln(i),
      lex_rel: lexScore.get(r.fileId) ?? 0,
      lex_rank: lexRank.has(r.fileId) ? ln(lexRank.get(r.fileId)!) : ABSENT_RANK,
      vec_rank: vecRank.has(r.fileId) ? ln(vecRank.get(r.fileId)!) : ABSENT_RANK,
      file: r.signals.file,
      defs: r.signals.defs,
      unit: r.signals.unit,
      mention: r.signals.mention,
      vector: r.signals.vector,
      cosine: input.vectors.files.get(r.fileId) ?? 0,
      pagerank: r.signals.pagerank,
      coverage: (input.stats.covered.get(r.fileId) ?? 0) / queryIdf,
      path_cover: share(tokenize(r.path)),
      name_in_query: stemTerms.length ? stemTerms.filter((t) => q.has(t)).length / stemTerms.length : 0,
      defname_cover: share(defNames.flatMap((n) => tokenize(n))),
      units_matched: ln(r.units.length),
      unit_second: maxUnit > 0 && r.units[1] ? r.units[1].score / maxUnit : 0,
      peripheral: isPeripheral(r.path) ? 1 : 0,
      hub_file: HUB_FILES.test(base) ? 1 : 0,
      log_tokens: ln(f?.tokens ?? 0),
      log_symbols: ln(defNames.length),
      in_degree: ln(inDegree.get(r.fileId) ?? 0),
      neighbour_support: support.get(r.fileId) ?? 0,
      age_days: f?.last != null && newest ? ln(Math.max(0, newest - f.last) / 86400) : ABSENT_RANK,
      commits: ln(f?.commits ?? 0),
      depth: r.path.split('/').length - 1,
      hist_vote: maxVote ? (past.vote.get(r.path) ?? 0) / maxVote : 0,
      hist_first: past.best ? (past.first.get(r.path) ?? 0) / past.best : 0,
      hist_top10: past.top10.get(r.path) ?? 0,
      hist_vote_raw: past.best ? (past.vote.get(r.path) ?? 0) / past.best : 0,
    };
    return { file: r, features: Float64Array.from(FEATURES, (k) => v[k]) };
  });
}
