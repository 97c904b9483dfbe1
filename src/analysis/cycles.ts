import type Database from 'better-sqlite3';
import { DirectedGraph } from 'graphology';
import { stronglyConnectedComponents } from 'graphology-components';
import { fileEdges, symbolEdges } from '../store/analysis-data.js';
import { symbolsWhere } from '../store/queries.js';

/**
 * Dependency cycles: strongly connected components of more than one node, over files (by default
 * their imports: A imports B imports A) or symbols (by default calls: mutual recursion). Each cycle
 * comes with one concrete loop through it (the shortest from its first member), which is what a person
 * has to break. The edge kinds are a parameter, so new kinds can be asked for by name.
 */
export type CycleLevel = 'file' | 'symbol';
export const DEFAULT_CYCLE_KINDS: Record<CycleLevel, string[]> = { file: ['imports'], symbol: ['calls'] };

export interface Cycle {
  /** Members, sorted (files, or symbols as file:qualifiedName). */
  members: string[];
  size: number;
  /** One loop through the component: first member ... back to it. */
  loop: string[];
}

export interface CycleReport {
  level: CycleLevel;
  kinds: string[];
  cycles: Cycle[];
  /** Nodes and edges of the graph looked at. */
  nodes: number;
  edges: number;
}

export function cycles(db: Database.Database, level: CycleLevel, kinds = DEFAULT_CYCLE_KINDS[level]): CycleReport {
  const g = new DirectedGraph();
  if (level === 'file') {
    for (const e of fileEdges(db, kinds)) {
      g.mergeNode(e.src);
      g.mergeNode(e.dst);
      g.mergeEdge(e.src, e.dst);
    }
  } else {
    const ids = new Set<number>();
    const rows = symbolEdges(db, kinds);
    for (const e of rows) ids.add(e.src).add(e.dst);
    const name = new Map(symbolsWhere(db, 's.id IN (SELECT value FROM json_each(?))', [JSON.stringify([...ids])])
      .map((s) => [s.id, `${s.file}:${s.qualifiedName}`]));
    for (const e of rows) {
      const a = name.get(e.src)!;
      const b = name.get(e.dst)!;
      g.mergeNode(a);
      g.mergeNode(b);
      g.mergeEdge(a, b);
    }
  }
  const out: Cycle[] = stronglyConnectedComponents(g).filter((c) => c.length > 1).map((c) => {
    const members = [...c].sort();
    return { members, size: members.length, loop: shortestLoop(g, members[0], new Set(members)) };
  }).sort((a, b) => b.size - a.size || a.members[0].localeCompare(b.members[0]));
  return { level, kinds, cycles: out, nodes: g.order, edges: g.size };
}

/** Breadth-first from `start` inside the component back to `start`: the shortest loop through it. */
function shortestLoop(g: DirectedGraph, start: string, within: Set<string>): string[] {
  const prev = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const n = queue[i];
    for (const m of g.outNeighbors(n).sort()) {
      if (!within.has(m)) continue;
      if (m === start) {
        const path = [n];
        for (let p = prev.get(n); p !== undefined; p = prev.get(p)) path.push(p);
        return [...path.reverse(), start];
      }
      if (!prev.has(m)) {
        prev.set(m, n);
        queue.push(m);
      }
    }
  }
  return [start];
}
