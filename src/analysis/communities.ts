import type Database from 'better-sqlite3';
import { UndirectedGraph } from 'graphology';
import louvainModule, { type DetailedLouvainOutput, type LouvainOptions } from 'graphology-communities-louvain';
import { fileEdges, indexedFiles, STRUCTURAL_KINDS, edgeKinds } from '../store/analysis-data.js';

/**
 * Communities of files: Louvain modularity over the undirected file graph, each pair of files weighted
 * by the summed confidence of every edge between them (all kinds but `contains`: calls, imports,
 * inheritance, tests, and new kinds as they come). The random choices are seeded, so the same index
 * gives the same communities. Files with no edge are left out (each would be a community of one).
 */
// A CommonJS module: under NodeNext its default import is the function itself (typed as the namespace).
const louvain = louvainModule as unknown as { detailed(g: UndirectedGraph, o: LouvainOptions): DetailedLouvainOutput };

export interface Community {
  id: number;
  /** The folder most of its files share (a name for people), or the most connected file's folder. */
  label: string;
  files: string[];
  size: number;
  /** Edge weight inside the community, and to files outside it. */
  internal: number;
  external: number;
}

export interface CommunityReport {
  communities: Community[];
  modularity: number;
  kinds: string[];
  /** Files with at least one edge (the ones placed), and all indexed files. */
  placed: number;
  files: number;
}

export function communities(db: Database.Database, opts: { kinds?: string[]; resolution?: number; includeTests?: boolean } = {}): CommunityReport {
  const kinds = opts.kinds ?? edgeKinds(db).filter((k) => !STRUCTURAL_KINDS.includes(k) && (opts.includeTests || k !== 'tests'));
  const all = indexedFiles(db);
  const tests = new Set(all.filter((f) => f.isTest).map((f) => f.path));
  const g = new UndirectedGraph();
  for (const e of fileEdges(db, kinds)) {
    if (!opts.includeTests && (tests.has(e.src) || tests.has(e.dst))) continue;
    g.mergeNode(e.src);
    g.mergeNode(e.dst);
    g.updateEdge(e.src, e.dst, (attr) => ({ weight: (attr.weight ?? 0) + e.weight }));
  }
  if (!g.order || !g.size) return { communities: [], modularity: 0, kinds, placed: 0, files: all.length };
  const details = louvain.detailed(g, { getEdgeWeight: 'weight', resolution: opts.resolution ?? 1, rng: seeded(1) });
  const groups = new Map<number, string[]>();
  for (const [node, c] of Object.entries(details.communities)) groups.set(c, [...(groups.get(c) ?? []), node]);
  const weight = (a: string, b: string): number => g.getEdgeAttribute(g.edge(a, b)!, 'weight');
  const list = [...groups.values()].map((files) => {
    files.sort();
    const inside = new Set(files);
    let internal = 0;
    let external = 0;
    for (const f of files) {
      for (const n of g.neighbors(f)) {
        if (inside.has(n)) internal += weight(f, n) / 2;
        else external += weight(f, n);
      }
    }
    return { files, size: files.length, internal: round(internal), external: round(external), label: label(files) };
  }).sort((a, b) => b.size - a.size || a.files[0].localeCompare(b.files[0]));
  return { communities: list.map((c, i) => ({ id: i + 1, ...c })), modularity: round(details.modularity), kinds, placed: g.order, files: all.length };
}

/** The deepest folder that holds at least half of the files. */
function label(files: string[]): string {
  const counts = new Map<string, number>();
  for (const f of files) {
    const parts = f.split('/').slice(0, -1);
    for (let i = 1; i <= parts.length; i++) counts.set(parts.slice(0, i).join('/'), (counts.get(parts.slice(0, i).join('/')) ?? 0) + 1);
  }
  const best = [...counts].filter(([, n]) => n * 2 >= files.length).sort((a, b) => b[0].split('/').length - a[0].split('/').length || b[1] - a[1])[0];
  return best ? `${best[0]}/` : '(root)';
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** mulberry32: a small seeded generator, so Louvain's random order is the same on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
