import type Database from 'better-sqlite3';
import { edgeKinds, fileEdges, graphNodes, STRUCTURAL_KINDS, symbolEdges } from '../store/analysis-data.js';

/**
 * The whole graph for other tools: files (edges: every symbol edge between two files, counted and
 * weighted) or definitions (edges: the index's edges between them), as DOT (Graphviz), GraphML (yEd,
 * Gephi), Mermaid, JSON, or Neo4j's bulk-import CSV. Edge kinds default to every kind but
 * `contains`, so kinds added to the index appear without a change here.
 */
export const EXPORT_FORMATS = ['dot', 'graphml', 'mermaid', 'json', 'neo4j'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface GraphExport {
  level: 'file' | 'symbol';
  kinds: string[];
  nodes: ReturnType<typeof graphNodes>;
  edges: { source: string; target: string; kind: string; weight: number; count: number }[];
}

export function exportGraph(db: Database.Database, level: 'file' | 'symbol', kinds?: string[]): GraphExport {
  const k = kinds?.length ? kinds : edgeKinds(db).filter((x) => !STRUCTURAL_KINDS.includes(x));
  const nodes = graphNodes(db, level);
  if (level === 'file') {
    // One edge per pair and kind, so a picture can tell imports from calls.
    const edges = k.flatMap((kind) => fileEdges(db, [kind]).map((e) => ({ source: e.src, target: e.dst, kind, weight: round(e.weight), count: e.edges })));
    return { level, kinds: k, nodes, edges };
  }
  const merged = new Map<string, GraphExport['edges'][number]>();
  for (const e of symbolEdges(db, k)) {
    const key = `${e.src}\0${e.dst}\0${e.kind}`;
    const m = merged.get(key);
    if (m) {
      m.count++;
      m.weight = Math.max(m.weight, round(e.confidence));
    } else merged.set(key, { source: String(e.src), target: String(e.dst), kind: e.kind, weight: round(e.confidence), count: 1 });
  }
  return { level, kinds: k, nodes, edges: [...merged.values()] };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

const dotQ = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const csv = (v: unknown) => {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

export function renderDot(g: GraphExport): string {
  const out = ['digraph cg {', '  rankdir=LR;', '  node [shape=box, fontsize=10];'];
  for (const n of g.nodes) out.push(`  ${dotQ(n.id)} [label=${dotQ(g.level === 'symbol' ? `${n.label}\n${n.file}:${n.line}` : n.label)}];`);
  for (const e of g.edges) out.push(`  ${dotQ(e.source)} -> ${dotQ(e.target)} [label=${dotQ(e.kind)}, weight=${e.weight}];`);
  out.push('}');
  return out.join('\n');
}

export function renderGraphml(g: GraphExport): string {
  const keys: [string, string, string, string][] = [['label', 'node', 'label', 'string'], ['kind', 'node', 'kind', 'string'], ['file', 'node', 'file', 'string'],
    ['language', 'node', 'language', 'string'], ['line', 'node', 'line', 'int'], ['loc', 'node', 'loc', 'int'], ['rank', 'node', 'rank', 'double'],
    ['ekind', 'edge', 'kind', 'string'], ['weight', 'edge', 'weight', 'double'], ['count', 'edge', 'count', 'int']];
  const out = ['<?xml version="1.0" encoding="UTF-8"?>',
    '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
    + 'xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">',
    ...keys.map(([id, dom, name, type]) => `  <key id="${id}" for="${dom}" attr.name="${name}" attr.type="${type}"/>`),
    `  <graph id="cg-${g.level}" edgedefault="directed">`];
  for (const n of g.nodes) {
    const data = Object.entries({ label: n.label, kind: n.kind, file: n.file, language: n.language, line: n.line, loc: n.loc, rank: n.rank })
      .filter(([, v]) => v !== null).map(([k, v]) => `<data key="${k}">${xml(String(v))}</data>`).join('');
    out.push(`    <node id="${xml(n.id)}">${data}</node>`);
  }
  g.edges.forEach((e, i) => out.push(`    <edge id="e${i}" source="${xml(e.source)}" target="${xml(e.target)}"><data key="ekind">${xml(e.kind)}</data>`
    + `<data key="weight">${e.weight}</data><data key="count">${e.count}</data></edge>`));
  out.push('  </graph>', '</graphml>');
  return out.join('\n');
}

/** Mermaid renders a few hundred nodes at most: the `max` highest-ranked nodes and the edges among them. */
export function renderMermaid(g: GraphExport, max = 150): string {
  const kept = [...g.nodes].sort((a, b) => b.rank - a.rank).slice(0, max);
  const ids = new Map(kept.map((n, i) => [n.id, `n${i}`]));
  const label = (s: string) => s.replace(/["`]/g, "'");
  const out = ['flowchart LR'];
  for (const n of kept) out.push(`  ${ids.get(n.id)}["${label(n.label)}"]`);
  for (const e of g.edges) if (ids.has(e.source) && ids.has(e.target)) out.push(`  ${ids.get(e.source)} -- ${e.kind} --> ${ids.get(e.target)}`);
  if (g.nodes.length > max) out.push(`  %% the ${max} highest-ranked of ${g.nodes.length} nodes; export JSON or GraphML for all`);
  return out.join('\n');
}

/** Neo4j bulk import (`neo4j-admin database import full --nodes=nodes.csv --relationships=relationships.csv`). */
export function renderNeo4j(g: GraphExport): { 'nodes.csv': string; 'relationships.csv': string } {
  const label = g.level === 'file' ? 'File' : 'Symbol';
  const nodes = ['id:ID,name,kind,file,language,line:int,loc:int,rank:double,:LABEL',
    ...g.nodes.map((n) => [n.id, n.label, n.kind, n.file, n.language, n.line, n.loc, n.rank, label].map(csv).join(','))];
  const rels = [':START_ID,:END_ID,:TYPE,weight:double,count:int',
    ...g.edges.map((e) => [e.source, e.target, e.kind.toUpperCase().replace(/[^A-Z0-9_]/g, '_'), e.weight, e.count].map(csv).join(','))];
  return { 'nodes.csv': `${nodes.join('\n')}\n`, 'relationships.csv': `${rels.join('\n')}\n` };
}
