import { readScrubbed } from '../../secrets/read.js';
import { openReader } from '../../store/db.js';
import type { RegistryDb } from '../db.js';
import type { Project } from '../projects.js';
import { findStringSites, scansFile, type StringSite } from './finder.js';
import { hookMatch, routeMatch, routeSpecificity } from './match.js';
import { maxOf } from '../../arrays.js';

/** Files larger than this are not read for string literals (bundles, generated tables). */
const MAX_SCAN_BYTES = 1_000_000;

interface SymbolSpan {
  id: number;
  qualified_name: string;
  kind: string;
  start_line: number;
  end_line: number;
}

export interface SiteRefresh {
  files: number;
  sites: number;
  edges: number;
  warnings: string[];
}

/**
 * Reads a project's indexed code files for hook and route literals, ties each to the symbol around it
 * (or, for a decorator, the one below it) in the project's own index, stores them, and links them
 * with every other registered project's sites. Replaces whatever was stored for the project before:
 * run after each index or update of the project.
 */
export function refreshStringSites(db: RegistryDb, project: Project): SiteRefresh {
  const warnings: string[] = [];
  const found: { file: string; site: StringSite; symbol: SymbolSpan }[] = [];
  let files = 0;
  const index = openReader(project.path);
  try {
    const rows = index.prepare('SELECT id, path FROM files ORDER BY path').all() as { id: number; path: string }[];
    const spans = index.prepare(`SELECT id, qualified_name, kind, start_line, end_line FROM symbols WHERE file_id = ?
      ORDER BY start_line, end_line DESC`);
    for (const f of rows) {
      if (!scansFile(f.path)) continue;
      // Contained and scrubbed, as every read of a repository's file (a credential in a URL literal is not stored).
      const text = readScrubbed(project.path, f.path, MAX_SCAN_BYTES);
      if (text === null) continue; // gone, over the size limit, or no longer a regular file inside the project
      files++;
      const sites = findStringSites(f.path, text);
      if (!sites.length) continue;
      const symbols = spans.all(f.id) as SymbolSpan[];
      for (const site of sites) {
        const symbol = symbolFor(symbols, site);
        if (symbol) found.push({ file: f.path, site, symbol });
      }
    }
  } finally {
    index.close();
  }
  let edges = 0;
  db.transaction(() => {
    // Cascades: the project's sites, and every edge that starts or ends in it.
    db.prepare('DELETE FROM cross_symbols WHERE project_id = ?').run(project.id);
    const sym = db.prepare(`INSERT OR IGNORE INTO cross_symbols (project_id, symbol_id, qualified_name, kind, file, line) VALUES (?, ?, ?, ?, ?, ?)`);
    const ins = db.prepare(`INSERT INTO string_sites (project_id, symbol_id, role, kind, name, call, method, file, line, confidence)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    for (const { file, site, symbol } of found) {
      sym.run(project.id, symbol.id, symbol.qualified_name, symbol.kind, file, symbol.start_line);
      ins.run(project.id, symbol.id, site.role, site.kind, site.name, site.call, site.method, file, site.line, site.confidence);
    }
    edges = linkProject(db, project.id);
  })();
  return { files, sites: found.length, edges, warnings };
}

/** The innermost symbol around the line; for a decorator, the definition that starts just below it. */
function symbolFor(symbols: SymbolSpan[], site: StringSite): SymbolSpan | null {
  if (site.attachBelow) {
    const below = symbols.find((s) => s.kind !== 'module' && s.start_line >= site.line && s.start_line <= site.line + 6);
    if (below) return below;
  }
  let best: SymbolSpan | null = null;
  for (const s of symbols) {
    if (s.start_line <= site.line && s.end_line >= site.line && (!best || s.end_line - s.start_line <= best.end_line - best.start_line)) best = s;
  }
  return best;
}

interface SiteRow {
  id: number;
  project_id: number;
  symbol_id: number;
  role: 'provides' | 'uses';
  kind: 'hook' | 'route';
  name: string;
  method: string | null;
  confidence: number;
}

/** Edges between the project's sites and every other project's, both ways. */
function linkProject(db: RegistryDb, projectId: number): number {
  const all = db.prepare('SELECT id, project_id, symbol_id, role, kind, name, method, confidence FROM string_sites').all() as SiteRow[];
  const mine = all.filter((s) => s.project_id === projectId);
  const others = all.filter((s) => s.project_id !== projectId);
  const ins = db.prepare(`INSERT OR IGNORE INTO cross_project_edges (from_project_id, from_symbol_id, to_project_id, to_symbol_id, type, name,
      from_site, to_site, weight) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const providers = indexBy(others.filter((s) => s.role === 'provides'));
  const users = indexBy(others.filter((s) => s.role === 'uses'));
  // Every match of a use, by provider project; only the closest ones per project become edges (a URL
  // `/articles/feed` links to the route `/articles/feed`, not also to `/articles/{slug}`).
  const matches = new Map<string, { use: SiteRow; provide: SiteRow; quality: number; closeness: number }[]>();
  const consider = (use: SiteRow, provide: SiteRow) => {
    const quality = use.kind === 'hook' ? hookMatch(use.name, provide.name) : routeMatch(use.name, use.method, provide.name, provide.method);
    if (!quality) return;
    const closeness = use.kind === 'hook' ? quality : routeSpecificity(use.name, provide.name);
    const key = `${use.id}:${provide.project_id}`;
    matches.set(key, [...(matches.get(key) ?? []), { use, provide, quality, closeness }]);
  };
  for (const s of mine) {
    if (s.role === 'uses') for (const p of candidatesFor(providers, s)) consider(s, p);
    else for (const u of candidatesFor(users, s)) {
      // The use may also match providers elsewhere in this project: they compete with this one.
      for (const p of all.filter((x) => x.project_id === projectId && x.role === 'provides' && x.kind === u.kind)) consider(u, p);
    }
  }
  let n = 0;
  for (const list of matches.values()) {
    const best = maxOf(list.map((m) => m.closeness));
    const seen = new Set<number>();
    for (const { use, provide, quality, closeness } of list) {
      if (closeness < best || seen.has(provide.id)) continue;
      seen.add(provide.id);
      const weight = Math.round(quality * Math.min(use.confidence, provide.confidence) * 100) / 100;
      n += ins.run(use.project_id, use.symbol_id, provide.project_id, provide.symbol_id, use.kind === 'hook' ? 'hooks_into' : 'depends_on',
        provide.name, use.id, provide.id, weight).changes;
    }
  }
  return n;
}

interface SiteIndex {
  byName: Map<string, SiteRow[]>;
  patterns: SiteRow[];
  routes: SiteRow[];
}

function indexBy(sites: SiteRow[]): SiteIndex {
  const byName = new Map<string, SiteRow[]>();
  const patterns: SiteRow[] = [];
  const routes: SiteRow[] = [];
  for (const s of sites) {
    if (s.kind === 'route') routes.push(s);
    else if (s.name.includes('*')) patterns.push(s);
    else {
      const list = byName.get(s.name) ?? [];
      list.push(s);
      byName.set(s.name, list);
    }
  }
  return { byName, patterns, routes };
}

function candidatesFor(ix: SiteIndex, s: SiteRow): SiteRow[] {
  if (s.kind === 'route') return ix.routes;
  if (s.name.includes('*')) return [...[...ix.byName.values()].flat(), ...ix.patterns];
  return [...(ix.byName.get(s.name) ?? []), ...ix.patterns];
}
