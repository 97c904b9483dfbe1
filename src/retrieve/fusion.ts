import type Database from 'better-sqlite3';
import type { RankingPreset } from '../config/config.js';
import { RankGraph } from '../graph/pagerank.js';
import { fileGraph } from '../store/graph-data.js';
import { emptySignals, isPeripheral, PERIPHERAL_FACTOR, type RankedFile } from './rank.js';
import type { VectorMatches } from './vectors.js';

/**
 * Fusing the candidates of full-text, vectors and the graph into one file ranking. Presets (README,
 * "Ranking presets"; measured in eval/results/dev.md):
 *
 *   hybrid   the lexical fusion of src/retrieve/rank.ts, plus VECTOR_WEIGHT x the file's best symbol
 *            cosine (relative to the best file's); vector-only files join with that term alone.
 *   lexical  the lexical fusion alone (no vectors).
 *   prd      the PRD's 0.60 cosine + 0.25 PageRank + 0.10 recency + 0.05 test-file.
 *   spec004  spec 004's 0.4 embedding + 0.4 graph + 0.2 execution signal; graph = personalized
 *            PageRank over the file graph from the best full-text and vector candidates.
 *   rrf      reciprocal-rank fusion (k = 60) of the lexical, vector and graph rankings.
 *
 * Each input is scaled to [0, 1] over the candidates before weighting, so weights compare signals.
 */
export const VECTOR_WEIGHT = 0.6;
export const RRF_K = 60;
/** Full-text candidates that seed the graph (spec004, rrf) and enter the vector presets. */
const SEEDS = 10;
const LEXICAL_CANDIDATES = 100;
/** Recency: a file last changed this many days before the newest change in the repository scores 0.5. */
const RECENCY_HALF_LIFE_DAYS = 30;

export interface FusionInput {
  preset: RankingPreset;
  lexical: RankedFile[];
  vectors: VectorMatches;
  /** Execution-signal strength per path in [0, 1] (spec004 weighs it itself). */
  signals?: Map<string, number>;
  /** Overrides of the hybrid weight, for the evaluation's sweeps. */
  vectorWeight?: number;
}

export function fuse(db: Database.Database, input: FusionInput): RankedFile[] {
  const { lexical } = input;
  // 'learned' re-orders the hybrid fusion's ranking afterwards (src/retrieve/ranker.ts).
  const preset = input.preset === 'learned' ? 'hybrid' : input.preset;
  if (preset === 'lexical' || (preset === 'hybrid' && input.vectors.files.size === 0)) return lexical;
  const byId = candidates(db, lexical, input.vectors);
  const best = Math.max(1e-9, ...input.vectors.files.values());
  const vec = scaledBy(input.vectors.files, best);
  const lexTop = lexical[0]?.score || 1;
  for (const r of byId.values()) {
    r.signals.vector = Math.max(0, vec.get(r.fileId) ?? 0);
    const near = input.vectors.byFile.get(r.fileId);
    if (near) r.near = near.map((n) => ({ symbolId: n.symbolId, score: Math.max(0, n.score) / best }));
  }
  const score = (r: RankedFile, s: number) => ({ ...r, score: (isPeripheral(r.path) ? PERIPHERAL_FACTOR : 1) * s });
  let out: RankedFile[];
  switch (preset) {
    case 'hybrid': {
      const w = input.vectorWeight ?? VECTOR_WEIGHT;
      // Lexical scores already carry the peripheral prior; the vector term gets it here.
      out = [...byId.values()].map((r) => ({ ...r, score: r.score / lexTop + w * r.signals.vector * (isPeripheral(r.path) ? PERIPHERAL_FACTOR : 1) }));
      break;
    }
    case 'prd': {
      const extra = fileFacts(db, [...byId.keys()]);
      out = [...byId.values()].map((r) => {
        const f = extra.get(r.fileId)!;
        r.signals.recency = f.recency;
        return score(r, 0.6 * r.signals.vector + 0.25 * f.pagerank + 0.1 * f.recency + 0.05 * f.tested);
      });
      break;
    }
    case 'spec004': {
      const graph = graphScores(db, lexical, input.vectors);
      const exec = input.signals ?? new Map<string, number>();
      out = [...byId.values()].map((r) => {
        r.signals.graph = graph.get(r.fileId) ?? 0;
        return score(r, 0.4 * r.signals.vector + 0.4 * r.signals.graph + 0.2 * (exec.get(r.path) ?? 0));
      });
      break;
    }
    case 'rrf': {
      const graph = graphScores(db, lexical, input.vectors);
      const rankOf = (m: Map<number, number>) => new Map([...m].sort((a, b) => b[1] - a[1]).map(([id], i) => [id, i + 1]));
      const lexRank = new Map(lexical.map((r, i) => [r.fileId, i + 1]));
      const vecRank = rankOf(input.vectors.files);
      const graphRank = rankOf(graph);
      out = [...byId.values()].map((r) => {
        r.signals.graph = graph.get(r.fileId) ?? 0;
        let s = 0;
        for (const ranks of [lexRank, vecRank, graphRank]) {
          const k = ranks.get(r.fileId);
          if (k !== undefined) s += 1 / (RRF_K + k);
        }
        return score(r, s);
      });
      break;
    }
  }
  return out.filter((r) => r.score > 0).sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1));
}

/** The lexical candidates, then the files only the vectors found (with empty lexical signals). */
function candidates(db: Database.Database, lexical: RankedFile[], vectors: VectorMatches): Map<number, RankedFile> {
  const byId = new Map(lexical.slice(0, LEXICAL_CANDIDATES).map((r) => [r.fileId, { ...r, signals: { ...r.signals } }]));
  const missing = [...vectors.files.keys()].filter((id) => !byId.has(id));
  if (missing.length) {
    const rows = db.prepare('SELECT id, path FROM files WHERE id IN (SELECT value FROM json_each(?))').raw().all(JSON.stringify(missing)) as [number, string][];
    for (const [id, path] of rows) {
      byId.set(id, { fileId: id, path, score: 0, signals: emptySignals(), units: [] });
    }
  }
  return byId;
}

function scaledBy(m: Map<number, number>, max: number): Map<number, number> {
  return new Map([...m].map(([k, v]) => [k, v / max]));
}

/** PageRank (scaled to the best candidate), recency from git history, and whether tests cover the file. */
function fileFacts(db: Database.Database, ids: number[]): Map<number, { pagerank: number; recency: number; tested: number }> {
  const rows = db.prepare(`SELECT f.id, f.pagerank, f.last_commit,
      EXISTS (SELECT 1 FROM edges e JOIN symbols s ON s.id = e.dst_id WHERE e.kind = 'tests' AND s.file_id = f.id)
    FROM files f WHERE f.id IN (SELECT value FROM json_each(?))`).raw().all(JSON.stringify(ids)) as [number, number, number | null, number][];
  const newest = (db.prepare('SELECT MAX(last_commit) FROM files').pluck().get() as number | null) ?? 0;
  const maxRank = Math.max(1e-12, ...rows.map((r) => r[1]));
  return new Map(rows.map(([id, pr, last, tested]) => [id, {
    pagerank: pr / maxRank,
    recency: last === null ? 0 : 0.5 ** ((newest - last) / 86400 / RECENCY_HALF_LIFE_DAYS),
    tested,
  }]));
}

/**
 * Personalized PageRank over the file graph (calls and imports, both directions: a seed's callers and
 * callees are both near it), seeded by the best full-text and vector candidates; scaled to [0, 1].
 */
function graphScores(db: Database.Database, lexical: RankedFile[], vectors: VectorMatches): Map<number, number> {
  const seeds = new Map<number, number>();
  const lexTop = lexical[0]?.score || 1;
  for (const r of lexical.slice(0, SEEDS)) seeds.set(r.fileId, r.score / lexTop);
  const vecTop = [...vectors.files].sort((a, b) => b[1] - a[1]).slice(0, SEEDS);
  for (const [id, c] of vecTop) seeds.set(id, (seeds.get(id) ?? 0) + Math.max(0, c) / Math.max(1e-9, vecTop[0][1]));
  if (!seeds.size) return new Map();
  const g = fileGraph(db);
  const ppr = new RankGraph(g.nodes, [...g.edges, ...g.edges.map((e) => ({ src: e.dst, dst: e.src, weight: e.weight }))]).personalized(seeds);
  return scaledBy(ppr, Math.max(1e-12, ...ppr.values()));
}
