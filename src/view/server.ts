import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { CgError, errorMessage } from '../errors.js';
import { PACKAGE_ROOT } from '../paths.js';
import { LiveIndex, type Snapshot } from '../store/live.js';
import { repoMap } from '../graph/structure.js';
import { neighbourhood, node } from '../graph/neighbourhood.js';
import { blastRadius } from '../graph/blast.js';
import { pickSymbol } from '../graph/refs.js';
import { exportGraph, renderDot, renderGraphml, renderMermaid, EXPORT_FORMATS } from '../graph/export.js';
import { searchSymbols, symbolById, symbolsWhere } from '../store/queries.js';
import { symbolEdges, edgeKinds, STRUCTURAL_KINDS } from '../store/analysis-data.js';
import { runQuery } from '../retrieve/query.js';
import { resolveInRepo } from '../repo/root.js';

/**
 * `cg view`: a local web page over the index, served on 127.0.0.1 only. The page (web/) draws with
 * cytoscape, served from the installed package (no CDN, works offline); every view asks a JSON
 * endpoint here that calls the same functions as the CLI (map, refs, impact, query, export), so what
 * the page shows is what the commands print. Requests naming another host are refused (a web page
 * elsewhere cannot reach the index through DNS rebinding).
 */
const require = createRequire(import.meta.url);
const WEB = path.join(PACKAGE_ROOT, 'web');

const STATIC: Record<string, { file: () => string; type: string }> = {
  '/': { file: () => path.join(WEB, 'index.html'), type: 'text/html; charset=utf-8' },
  '/app.js': { file: () => path.join(WEB, 'app.js'), type: 'text/javascript; charset=utf-8' },
  '/app.css': { file: () => path.join(WEB, 'app.css'), type: 'text/css; charset=utf-8' },
  '/vendor/cytoscape.min.js': { file: () => require.resolve('cytoscape/dist/cytoscape.min.js'), type: 'text/javascript; charset=utf-8' },
};

type Handler = (snap: Snapshot, q: URLSearchParams) => Promise<unknown> | unknown;

function num(q: URLSearchParams, key: string, def: number, min: number, max: number): number {
  const v = q.get(key);
  if (v === null || v === '') return def;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new CgError('usage', `${key} must be a whole number from ${min} to ${max}`, '');
  return n;
}

function symbolOf(snap: Snapshot, q: URLSearchParams) {
  const id = q.get('id');
  if (id) {
    const s = symbolById(snap.db, Number(id));
    if (!s) throw new CgError('not_found', `No symbol with id ${id}`, 'The index may have changed: search again.');
    return s;
  }
  const name = q.get('name');
  if (!name) throw new CgError('usage', 'Give id or name', '');
  return pickSymbol(snap.db, name);
}

const API: Record<string, Handler> = {
  '/api/status': (snap) => ({
    repository: path.basename(snap.root), freshness: snap.freshness,
    files: snap.db.prepare('SELECT COUNT(*) FROM files').pluck().get(),
    symbols: snap.db.prepare("SELECT COUNT(*) FROM symbols WHERE kind != 'module'").pluck().get(),
  }),
  // The repository map: files by PageRank within a budget, and the calls and imports between them.
  '/api/map': async (snap, q) => {
    const m = await repoMap(snap.db, { folder: q.get('folder') || null, budget: num(q, 'budget', 4000, 100, 50_000), links: true });
    return { files: m.files, links: m.links ?? [], total_files: m.total_files, text: m.text };
  },
  '/api/search': (snap, q) => {
    const pattern = (q.get('q') ?? '').trim();
    if (!pattern) return { total: 0, symbols: [] };
    const r = searchSymbols(snap.db, { pattern, limit: num(q, 'limit', 20, 1, 200) });
    return { total: r.total, symbols: r.symbols.map(node) };
  },
  '/api/symbol': (snap, q) => neighbourhood(snap.db, symbolOf(snap, q).id),
  // A change's blast radius: the same walk as `cg impact`, with the graph of who depends on what.
  '/api/impact': (snap, q) => {
    const depth = num(q, 'depth', 3, 1, 6);
    const file = q.get('file');
    const sym = file ? null : symbolOf(snap, q);
    const input = sym ? { symbols: [`${sym.file}:${sym.qualifiedName}`] } : { files: [file!] };
    const r = blastRadius(snap.db, input, depth, (p) => resolveInRepo(snap.root, p), { graph: true });
    return { targets: r.targets, dependents: [...Object.values(r.direct).flat(), ...r.transitive].map((d) => ({ id: d.id, symbol: d.symbol, file: d.file,
      depth: d.depth, relation: d.relation })), tests: r.tests.map((t) => t.symbol), risk: r.risk, graph: r.graph };
  },
  // A query's answer: the places `cg query` returns, and the edges among their symbols.
  '/api/query': async (snap, q) => {
    const text = (q.get('q') ?? '').trim();
    if (!text) throw new CgError('usage', 'The query is empty', 'Type what the task is about.');
    const r = await runQuery(snap.db, snap.root, { text, budget: num(q, 'budget', 3500, 200, 50_000) });
    const ids = r.files.map((f) => f.symbol_id).filter((x): x is number => x !== null);
    const set = new Set(ids);
    const kinds = edgeKinds(snap.db).filter((k) => !STRUCTURAL_KINDS.includes(k));
    const edges = symbolEdges(snap.db, kinds).filter((e) => set.has(e.src) && set.has(e.dst));
    return { places: r.files.map((f) => ({ id: f.symbol_id, path: f.path, symbol: f.symbol, lines: f.line_range, rationale: f.rationale, score: f.score })),
      nodes: symbolsWhere(snap.db, 's.id IN (SELECT value FROM json_each(?))', [JSON.stringify(ids)]).map(node), edges };
  },
  '/api/export': (snap, q) => {
    const format = q.get('format') ?? 'json';
    const level = q.get('level') === 'symbol' ? 'symbol' : 'file';
    if (!(EXPORT_FORMATS as readonly string[]).includes(format) || format === 'neo4j') throw new CgError('usage', `Unknown format ${format}`, 'dot, graphml, mermaid or json');
    const g = exportGraph(snap.db, level);
    return format === 'dot' ? renderDot(g) : format === 'graphml' ? renderGraphml(g) : format === 'mermaid' ? renderMermaid(g) : g;
  },
};

export interface ViewServer {
  url: string;
  close(): Promise<void>;
}

export async function startView(root: string, opts: { port?: number } = {}): Promise<ViewServer> {
  const live = new LiveIndex(root);
  await live.read(() => undefined); // a missing or broken index is an error now, not on the first page load
  const server = http.createServer((req, res) => {
    void handle(live, req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => reject(err.code === 'EADDRINUSE'
      ? new CgError('usage', `Port ${opts.port} on 127.0.0.1 is in use`, 'Pass another --port, or --port 0 for any free one.')
      : new CgError('io', `Cannot listen on 127.0.0.1: ${errorMessage(err)}`, 'Pass another --port.')));
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => {
        live.close();
        resolve();
      });
    }),
  };
}

async function handle(live: LiveIndex, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const host = (req.headers.host ?? '').replace(/:\d+$/, '');
  if (host !== '127.0.0.1' && host !== 'localhost') {
    res.writeHead(403, { 'content-type': 'text/plain' }).end('cg view answers requests for 127.0.0.1 or localhost only\n');
    return;
  }
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (req.method !== 'GET') {
    res.writeHead(405, { allow: 'GET' }).end();
    return;
  }
  const asset = STATIC[url.pathname];
  if (asset) {
    try {
      res.writeHead(200, { 'content-type': asset.type, 'cache-control': 'no-store' }).end(fs.readFileSync(asset.file()));
    } catch (err) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`cg view: ${errorMessage(err)}\n`);
    }
    return;
  }
  const api = API[url.pathname];
  if (!api) {
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'not_found', message: `No such page: ${url.pathname}` } }));
    return;
  }
  try {
    const body = await live.read((snap) => api(snap, url.searchParams));
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(200, { 'content-type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json' }).end(text);
  } catch (err) {
    const e = err instanceof CgError ? err : new CgError('internal', errorMessage(err), 'This is a bug in cg.');
    res.writeHead(e.code === 'not_found' || e.code === 'ambiguous' ? 404 : e.code === 'usage' ? 400 : 500, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: e.toJSON() }));
  }
}
