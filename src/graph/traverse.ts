/** Breadth-first reach over an edge relation given as a neighbour function (the store supplies it). */
export interface Hop {
  id: number;
  line: number | null;
  confidence: number;
  /** What the edge is (`calls`, `registers`, `fires`...), when the walk follows several kinds. */
  relation?: string;
  /** What of the other end the edge names: a field, a table, a route or hook (`kind:name`). */
  target?: string | null;
}

export interface Reached {
  id: number;
  /** 1 for direct neighbours. */
  depth: number;
  /** The node this one was reached from (the start node at depth 1). */
  via: number;
  /** Lines of the edges from `via` (call sites), in order. */
  lines: number[];
  /** Product of edge confidences along the path that first reached it. */
  confidence: number;
  /** The relation and target of the edge that first reached it. */
  relation?: string;
  target?: string | null;
}

/**
 * The walk asks for a whole frontier's neighbours at once (`neighbors(ids)[i]` are those of `ids[i]`,
 * in the order one node's query gives them): a hub's hundred callers are one query, not a hundred.
 */
export function traverse(start: number, neighbors: (ids: number[]) => Hop[][], maxDepth: number, limit = 1000): Reached[] {
  const seen = new Map<number, Reached>();
  let frontier: { id: number; confidence: number }[] = [{ id: start, confidence: 1 }];
  for (let depth = 1; depth <= maxDepth && frontier.length; depth++) {
    const next: { id: number; confidence: number }[] = [];
    const hops = neighbors(frontier.map((f) => f.id));
    for (const [i, from] of frontier.entries()) {
      for (const hop of hops[i]) {
        if (hop.id === start) continue;
        const conf = from.confidence * hop.confidence;
        const prev = seen.get(hop.id);
        if (prev) {
          if (prev.depth === depth && prev.via === from.id && hop.line !== null && !prev.lines.includes(hop.line)) {
            prev.lines.push(hop.line);
          }
          if (prev.depth === depth && conf > prev.confidence) prev.confidence = conf;
          continue;
        }
        if (seen.size >= limit) return [...seen.values()];
        seen.set(hop.id, { id: hop.id, depth, via: from.id, lines: hop.line === null ? [] : [hop.line], confidence: conf,
          ...(hop.relation ? { relation: hop.relation } : {}), ...(hop.target ? { target: hop.target } : {}) });
        next.push({ id: hop.id, confidence: conf });
      }
    }
    frontier = next;
  }
  return [...seen.values()];
}
