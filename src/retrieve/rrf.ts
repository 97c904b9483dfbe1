/**
 * Reciprocal-rank fusion of lists of results (CodeMem Appendix C): score(d) = Σ over lists of
 * 1 / (k + rank(d)), k = 60 (the rrf preset's constant). Used to merge projects' answers (federation)
 * and code with documents (the search tools).
 * Items with the same key in several lists are one item (the first occurrence is kept). Ties (the
 * top item of every list scores the same) keep the order of `tieBreak`, then of the lists.
 */
import { RRF_K } from './fusion.js';

export interface Fused<T> {
  item: T;
  rrf: number;
}

export function rrfMerge<T>(lists: T[][], key: (t: T) => string, tieBreak: (a: T, b: T) => number = () => 0, k = RRF_K): Fused<T>[] {
  const scores = new Map<string, { item: T; rrf: number; order: number }>();
  let order = 0;
  // Rank-major order, so that among equal scores the lists take turns.
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let rank = 0; rank < longest; rank++) {
    for (const list of lists) {
      if (rank >= list.length) continue;
      const item = list[rank];
      const id = key(item);
      const prev = scores.get(id);
      const add = 1 / (k + rank + 1);
      if (prev) prev.rrf += add;
      else scores.set(id, { item, rrf: add, order: order++ });
    }
  }
  return [...scores.values()]
    .sort((a, b) => b.rrf - a.rrf || tieBreak(a.item, b.item) || a.order - b.order)
    .map(({ item, rrf }) => ({ item, rrf }));
}
