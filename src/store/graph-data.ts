import type Database from 'better-sqlite3';
import type { WeightedEdge } from '../graph/pagerank.js';

/** The call graph between symbols: every symbol, and call edges weighted by their confidence. */
export function callGraph(db: Database.Database): { nodes: number[]; edges: WeightedEdge[] } {
  const nodes = db.prepare("SELECT id FROM symbols WHERE kind != 'module'").pluck().all() as number[];
  const edges = (db.prepare("SELECT src_id, dst_id, confidence FROM edges WHERE kind = 'calls' AND dst_id IS NOT NULL").raw().all() as
    [number, number, number][]).map(([src, dst, weight]) => ({ src, dst, weight }));
  return { nodes, edges };
}

/** Files linked by the calls and imports between them, weighted by summed confidence. */
export function fileGraph(db: Database.Database): { nodes: number[]; edges: WeightedEdge[] } {
  const nodes = db.prepare('SELECT id FROM files').pluck().all() as number[];
  const edges = (db.prepare(`SELECT s.file_id, d.file_id, SUM(e.confidence) FROM edges e
      JOIN symbols s ON s.id = e.src_id JOIN symbols d ON d.id = e.dst_id
      WHERE e.kind IN ('calls', 'imports') AND s.file_id != d.file_id GROUP BY 1, 2`).raw().all() as [number, number, number][])
    .map(([src, dst, weight]) => ({ src, dst, weight }));
  return { nodes, edges };
}
