import { DirectedGraph } from 'graphology';
import { WeightedNeighborhoodIndex } from 'graphology-indices/neighborhood.js';

/**
 * PageRank and personalized PageRank over a weighted directed graph (α 0.85, tolerance 1e-6, at most
 * 100 iterations). graphology-metrics' pagerank has no personalization and throws when it does not
 * converge; this power iteration over graphology's CSR index does both and returns its last estimate.
 */
export const ALPHA = 0.85;
export const TOLERANCE = 1e-6;
export const MAX_ITERATIONS = 100;

export interface WeightedEdge {
  src: number;
  dst: number;
  weight: number;
}

export class RankGraph {
  private readonly graph = new DirectedGraph<Record<string, never>, { weight: number }>();
  private index: WeightedNeighborhoodIndex | null = null;

  constructor(nodes: Iterable<number>, edges: Iterable<WeightedEdge>) {
    for (const n of nodes) this.graph.mergeNode(String(n));
    for (const e of edges) {
      if (e.src === e.dst || e.weight <= 0) continue;
      const s = String(e.src);
      const d = String(e.dst);
      if (!this.graph.hasNode(s) || !this.graph.hasNode(d)) continue;
      const key = this.graph.edge(s, d);
      if (key) this.graph.updateEdgeAttribute(key, 'weight', (w) => (w ?? 0) + e.weight);
      else this.graph.addEdge(s, d, { weight: e.weight });
    }
  }

  get size(): number {
    return this.graph.order;
  }

  /** Global PageRank: teleports are uniform. */
  pagerank(): Map<number, number> {
    return this.iterate(null);
  }

  /** Personalized PageRank: teleports go to the seeds, in proportion to their weights. */
  personalized(seeds: Map<number, number>): Map<number, number> {
    return this.iterate(seeds);
  }

  private iterate(seeds: Map<number, number> | null): Map<number, number> {
    const out = new Map<number, number>();
    const n = this.graph.order;
    if (!n) return out;
    this.index ??= new WeightedNeighborhoodIndex(this.graph, 'weight');
    const ix = this.index;
    const pos = new Map(ix.nodes.map((k, i) => [k, i]));
    const teleport = new Float64Array(n);
    if (seeds && seeds.size) {
      let total = 0;
      for (const [k, w] of seeds) {
        const i = pos.get(String(k));
        if (i === undefined || w <= 0) continue;
        teleport[i] += w;
        total += w;
      }
      if (total === 0) return out;
      for (let i = 0; i < n; i++) teleport[i] /= total;
    } else teleport.fill(1 / n);
    let x = Float64Array.from(teleport);
    let next = new Float64Array(n);
    for (let it = 0; it < MAX_ITERATIONS; it++) {
      next.fill(0);
      let dangling = 0;
      for (let i = 0; i < n; i++) {
        const degree = ix.outDegrees[i];
        if (!degree) {
          dangling += x[i];
          continue;
        }
        for (let j = ix.starts[i]; j < ix.starts[i + 1]; j++) next[ix.neighborhood[j]] += (ALPHA * x[i] * ix.weights[j]) / degree;
      }
      let err = 0;
      for (let i = 0; i < n; i++) {
        next[i] += (1 - ALPHA + ALPHA * dangling) * teleport[i];
        err += Math.abs(next[i] - x[i]);
      }
      [x, next] = [next, x];
      if (err < n * TOLERANCE) break;
    }
    ix.nodes.forEach((k, i) => out.set(Number(k), x[i]));
    return out;
  }
}
