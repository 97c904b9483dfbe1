import type Database from 'better-sqlite3';
import { edgeKinds, STRUCTURAL_KINDS } from '../store/analysis-data.js';
import { edgesFrom, edgesTo, symbolById, symbolsByIds, symbolsWhere, type SymbolInfo } from '../store/queries.js';

/**
 * A symbol and the symbols one edge away in either direction, every kind but `contains` (calls,
 * imports, inheritance, tests and whatever kinds the index has), with its parent and members: what the
 * web view draws around a symbol and expands node by node.
 */
export interface GraphNode {
  id: number;
  label: string;
  kind: string;
  file: string;
  line: number;
}

export interface GraphEdge {
  source: number;
  target: number;
  kind: string;
  line: number | null;
  confidence: number;
}

export interface Neighbourhood {
  center: GraphNode;
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** The same lists as `cg refs --callers/--callees` at depth 1 (qualified names). */
  callers: string[];
  callees: string[];
}

export function node(s: SymbolInfo): GraphNode {
  return { id: s.id, label: s.qualifiedName, kind: s.kind, file: s.file, line: s.startLine };
}

export function neighbourhood(db: Database.Database, id: number): Neighbourhood | null {
  const center = symbolById(db, id);
  if (!center) return null;
  const kinds = edgeKinds(db).filter((k) => !STRUCTURAL_KINDS.includes(k));
  const edges: GraphEdge[] = [];
  const ids = new Set<number>([id]);
  for (const e of edgesTo(db, id, kinds)) {
    if (e.src === id) continue;
    edges.push({ source: e.src, target: id, kind: e.kind, line: e.line, confidence: e.confidence });
    ids.add(e.src);
  }
  for (const e of edgesFrom(db, id, kinds)) {
    if (e.dst === null || e.dst === id) continue;
    edges.push({ source: id, target: e.dst, kind: e.kind, line: e.line, confidence: e.confidence });
    ids.add(e.dst);
  }
  // Its container and members, linked by `contains`, so a class opens onto its methods.
  const family = symbolsWhere(db, "(s.id = ? OR s.parent_id = ?) AND s.kind != 'module'", [center.parentId ?? -1, id]);
  for (const s of family) {
    ids.add(s.id);
    edges.push(s.id === center.parentId ? { source: s.id, target: id, kind: 'contains', line: null, confidence: 1 }
      : { source: id, target: s.id, kind: 'contains', line: null, confidence: 1 });
  }
  const nodes = [...symbolsByIds(db, ids).values()].map(node);
  const name = new Map(nodes.map((n) => [n.id, n.label]));
  const uniq = (xs: number[]) => [...new Set(xs)].map((x) => name.get(x)!).filter(Boolean);
  return {
    center: node(center), nodes, edges,
    callers: uniq(edges.filter((e) => e.kind === 'calls' && e.target === id).map((e) => e.source)),
    callees: uniq(edges.filter((e) => e.kind === 'calls' && e.source === id).map((e) => e.target)),
  };
}
