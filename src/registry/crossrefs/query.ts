import type { RegistryDb } from '../db.js';
import { nameAnswers } from './match.js';

/** The relationship kinds of the CodeMem cross_refs contract. */
export const CROSS_KINDS = ['hooks_into', 'imports', 'depends_on', 'all'] as const;
export type CrossKind = (typeof CROSS_KINDS)[number];

export interface CrossRef {
  from_project: string;
  from_symbol: string;
  to_project: string;
  to_symbol: string;
  kind: 'hooks_into' | 'imports' | 'depends_on';
  /** The hook, route or package that links them. */
  name: string;
  /** Where the reference is written (in from_project). */
  file_path: string;
  line: number;
  /** Where the hook is fired or the route declared (in to_project). */
  to_file_path: string;
  to_line: number;
  via: string;
  confidence: number;
}

export interface SiteHit {
  project: string;
  role: 'provides' | 'uses';
  kind: 'hook' | 'route';
  name: string;
  call: string;
  method: string | null;
  symbol: string;
  file_path: string;
  line: number;
  confidence: number;
}

/** A row of EDGES: the edge and, for filtering, the project ids and the name as the user wrote it. */
interface EdgeRow extends CrossRef {
  from_pid: number;
  to_pid: number;
  use_name: string;
}

const EDGES = `SELECT fp.name AS from_project, fs.qualified_name AS from_symbol, tp.name AS to_project, ts.qualified_name AS to_symbol,
    e.type AS kind, e.name AS name, us.file AS file_path, us.line AS line, ps.file AS to_file_path, ps.line AS to_line,
    us.call AS via, e.weight AS confidence, e.from_project_id AS from_pid, e.to_project_id AS to_pid, us.name AS use_name
  FROM cross_project_edges e
  JOIN projects fp ON fp.id = e.from_project_id JOIN projects tp ON tp.id = e.to_project_id
  JOIN cross_symbols fs ON fs.project_id = e.from_project_id AND fs.symbol_id = e.from_symbol_id
  JOIN cross_symbols ts ON ts.project_id = e.to_project_id AND ts.symbol_id = e.to_symbol_id
  JOIN string_sites us ON us.id = e.from_site JOIN string_sites ps ON ps.id = e.to_site`;

function inScope(allowed: Set<number>) {
  return (r: { from_pid: number; to_pid: number }) => allowed.has(r.from_pid) && allowed.has(r.to_pid);
}

function strip(r: EdgeRow): CrossRef {
  const { from_pid: _f, to_pid: _t, use_name: _u, ...rest } = r;
  return rest;
}

/**
 * cross_refs(name): every cross-project edge whose hook or route is `name` (or, when none is, whose
 * caller or callee symbol is named so), both ends inside `allowed`; and every site in the allowed projects that fires,
 * hooks, declares or calls it, linked or not (a hook with no add-on hooking it still shows where it
 * is fired).
 */
export function crossRefs(db: RegistryDb, name: string, kind: CrossKind, allowed: Set<number>): { edges: CrossRef[]; sites: SiteHit[] } {
  const candidates = (db.prepare(EDGES).all() as EdgeRow[]).filter(inScope(allowed)).filter((r) => kind === 'all' || r.kind === kind);
  // A hook or route of that name first; only when there is none, the edges at a symbol of that name.
  const byLink = candidates.filter((r) => nameAnswers(r.name, name) || nameAnswers(r.use_name, name));
  const named = (q: string) => q === name || q.endsWith(`.${name}`);
  const rows = byLink.length ? byLink : candidates.filter((r) => named(r.from_symbol) || named(r.to_symbol));
  const siteKinds = kind === 'all' ? ['hook', 'route'] : kind === 'hooks_into' ? ['hook'] : kind === 'depends_on' ? ['route'] : [];
  const sites = (db.prepare(`SELECT p.name AS project, s.role, s.kind, s.name, s.call, s.method, c.qualified_name AS symbol, s.file AS file_path,
      s.line, s.confidence, s.project_id AS pid FROM string_sites s JOIN projects p ON p.id = s.project_id
      JOIN cross_symbols c ON c.project_id = s.project_id AND c.symbol_id = s.symbol_id`).all() as (SiteHit & { pid: number })[])
    .filter((s) => allowed.has(s.pid) && siteKinds.includes(s.kind) && nameAnswers(s.name, name))
    .map(({ pid: _p, ...s }) => s);
  const order = (a: { file_path: string; line: number }, b: { file_path: string; line: number }) =>
    a.file_path.localeCompare(b.file_path) || a.line - b.line;
  return {
    edges: rows.map(strip).sort((a, b) => a.from_project.localeCompare(b.from_project) || order(a, b)),
    sites: sites.sort((a, b) => a.project.localeCompare(b.project) || order(a, b)),
  };
}

/** Edges that end at (or start from) one symbol of one project, for references and impact. */
export function crossEdgesOfSymbol(db: RegistryDb, projectId: number, symbolId: number, allowed: Set<number>):
  { incoming: CrossRef[]; outgoing: CrossRef[] } {
  const rows = (db.prepare(`${EDGES} WHERE (e.to_project_id = ? AND e.to_symbol_id = ?) OR (e.from_project_id = ? AND e.from_symbol_id = ?)`)
    .all(projectId, symbolId, projectId, symbolId) as EdgeRow[]).filter(inScope(allowed));
  return {
    incoming: rows.filter((r) => r.to_pid === projectId).map(strip),
    outgoing: rows.filter((r) => r.from_pid === projectId).map(strip),
  };
}

export interface CollectionMap {
  projects: { name: string; symbol_count: number; dependencies: string[]; dependents: string[] }[];
  cross_project_edges: number;
  graph_json: {
    nodes: { id: string; symbols: number; status: string }[];
    edges: { from: string; to: string; type: string; count: number; names: string[] }[];
  };
}

/** collection_map: the projects in scope and how they depend on each other through cross-project edges. */
export function collectionMap(db: RegistryDb, allowed: Set<number>): CollectionMap {
  const projects = (db.prepare('SELECT id, name, symbols, status FROM projects ORDER BY name').all() as
    { id: number; name: string; symbols: number; status: string }[]).filter((p) => allowed.has(p.id));
  const names = new Map(projects.map((p) => [p.id, p.name]));
  const groups = (db.prepare(`SELECT from_project_id AS f, to_project_id AS t, type, COUNT(*) AS n,
      (SELECT json_group_array(name) FROM (SELECT DISTINCT e2.name FROM cross_project_edges e2 WHERE e2.from_project_id = e.from_project_id
        AND e2.to_project_id = e.to_project_id AND e2.type = e.type ORDER BY e2.name LIMIT 10)) AS names
    FROM cross_project_edges e GROUP BY f, t, type ORDER BY f, t, type`).all() as { f: number; t: number; type: string; n: number; names: string }[])
    .filter((g) => allowed.has(g.f) && allowed.has(g.t));
  const deps = new Map<number, Set<string>>();
  const dependents = new Map<number, Set<string>>();
  for (const g of groups) {
    (deps.get(g.f) ?? deps.set(g.f, new Set()).get(g.f)!).add(names.get(g.t)!);
    (dependents.get(g.t) ?? dependents.set(g.t, new Set()).get(g.t)!).add(names.get(g.f)!);
  }
  return {
    projects: projects.map((p) => ({ name: p.name, symbol_count: p.symbols, dependencies: [...(deps.get(p.id) ?? [])].sort(),
      dependents: [...(dependents.get(p.id) ?? [])].sort() })),
    cross_project_edges: groups.reduce((n, g) => n + g.n, 0),
    graph_json: {
      nodes: projects.map((p) => ({ id: p.name, symbols: p.symbols, status: p.status })),
      edges: groups.map((g) => ({ from: names.get(g.f)!, to: names.get(g.t)!, type: g.type, count: g.n, names: JSON.parse(g.names) })),
    },
  };
}

/** The map as a Mermaid flowchart: an arrow from each project to those it hooks into or calls. */
export function collectionMermaid(map: CollectionMap): string {
  const id = new Map(map.projects.map((p, i) => [p.name, `p${i}`]));
  const lines = ['flowchart LR'];
  for (const p of map.projects) lines.push(`  ${id.get(p.name)}["${p.name.replace(/"/g, '#quot;')}<br/>${p.symbol_count} symbols"]`);
  for (const e of map.graph_json.edges) {
    lines.push(`  ${id.get(e.from)} -->|"${e.type} ×${e.count}"| ${id.get(e.to)}`);
  }
  return lines.join('\n');
}

/** The map as text: one line per dependency. */
export function collectionText(map: CollectionMap): string {
  const out = map.projects.map((p) => `${p.name} (${p.symbol_count} symbols)`);
  for (const e of map.graph_json.edges) {
    out.push(`  ${e.from} -> ${e.to}: ${e.type} ×${e.count} (${e.names.slice(0, 5).join(', ')}${e.names.length > 5 ? ', …' : ''})`);
  }
  out.push(`${map.cross_project_edges} cross-project edge(s)`);
  return out.join('\n');
}
