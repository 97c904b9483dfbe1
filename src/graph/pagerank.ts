import { DirectedGraph } from 'graphology';
import { WeightedNeighborhoodIndex } from 'graphology-indices/neighborhood.js';
import { powerIteration } from './power-iteration.js';

export { ALPHA, MAX_ITERATIONS, TOLERANCE, powerIteration, type Csr } from './power-iteration.js';

/**
 * PageRank and personalized PageRank over a weighted directed graph (α 0.85, tolerance 1e-6, at most
 * 100 iterations). graphology-metrics' pagerank has no personalization and throws when it does not
 * converge; this power iteration over graphology's CSR index does both and returns its last estimate.
 */

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
    let teleport: Float64Array | null = null;
    if (seeds && seeds.size) {
      const pos = new Map(ix.nodes.map((k, i) => [k, i]));
      teleport = new Float64Array(n);
      let total = 0;
      for (const [k, w] of seeds) {
        const i = pos.get(String(k));
        if (i === undefined || w <= 0) continue;
        teleport[i] += w;
        total += w;
      }
      if (total === 0) return out;
      for (let i = 0; i < n; i++) teleport[i] /= total;
    }
    const x = powerIteration(ix, teleport);
    ix.nodes.forEach((k, i) => out.set(Number(k), x[i]));
    return out;
  }
}
