/**
 * The power iteration behind both PageRanks (src/graph/pagerank.ts over graphology's index, and
 * src/indexer/ranks.ts over rows it reads itself), apart from graphology so that an update, which
 * ranks from rows, does not load it.
 */
export const ALPHA = 0.85;
export const TOLERANCE = 1e-6;
export const MAX_ITERATIONS = 100;

/**
 * A weighted directed graph in compressed sparse rows: node i's out-edges are
 * neighborhood/weights[starts[i]..starts[i+1]), outDegrees[i] their summed weight. graphology's
 * WeightedNeighborhoodIndex has this shape; src/indexer/ranks.ts builds one directly from rows.
 */
export interface Csr {
  starts: ArrayLike<number>;
  neighborhood: ArrayLike<number>;
  weights: ArrayLike<number>;
  outDegrees: ArrayLike<number>;
}

/**
 * PageRank by power iteration from the teleport vector (uniform when null): the mass of nodes
 * without out-edges is spread like teleports; stops when the L1 change is below n × TOLERANCE or
 * after MAX_ITERATIONS. Returns the rank of each node position.
 */
export function powerIteration(ix: Csr, teleportIn: Float64Array | null): Float64Array {
  const n = ix.outDegrees.length;
  const teleport = teleportIn ?? new Float64Array(n).fill(1 / n);
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
  return x;
}
