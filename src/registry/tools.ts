import fs from 'node:fs';
import { z } from 'zod';
import { CgError } from '../errors.js';
import { MAX_QUERY_CHARS } from '../retrieve/query.js';
import { SYMBOL_KINDS } from '../lang/types.js';
import { FILTER_TYPES } from '../extract/documents/formats.js';
import { fileOverview } from '../store/file-info.js';
import { currentDbPath } from '../store/db.js';
import { resolveInRepo } from '../repo/root.js';
import type { RegistryDb } from './db.js';
import {
  IndexPool, federatedImpact, federatedReferences, federatedSearch, federatedSymbols,
} from './federate.js';
import {
  addMembers, addProject, createCollection, listCollections, projectById, requireProject, NAME_PATTERN, type Project,
} from './projects.js';
import { createScope, revokeScope, SCOPE_LEVELS, type Scope, DEFAULT_LIFETIME_MINUTES, MAX_LIFETIME_MINUTES } from './sessions.js';
import { enqueueJob, listJobs } from './jobs.js';
import { collectionMap, collectionMermaid, collectionText, crossRefs, CROSS_KINDS } from './crossrefs/query.js';

/**
 * The CodeMem tools in registry mode (Appendix E): one server for many projects, every call under a
 * session's scope. Each tool is a zod schema (checked strictly by the server: an unknown argument is an
 * error naming the closest valid one, as in `cg serve`) and a function over the registry and federation; `session_id` and `project` are accepted by every
 * tool that reads code. Who may call what (ADMIN: global scope; COLLECTION: collection or global) is
 * declared here and enforced by the server before the tool runs.
 */
export type Level = 'any' | 'collection' | 'global';

export interface RegistryContext {
  db: RegistryDb;
  pool: IndexPool;
  scope: Scope;
  /** The projects this session may read, as of this call. */
  projects: Project[];
  /** Starts the job runner after jobs were queued (the agent's, or the server's own). */
  kick(): Promise<void>;
}

export interface ToolResult {
  body: Record<string, unknown>;
  /** How many results the answer holds, for the audit log. */
  count: number;
  text?: string;
}

export interface RegistryTool {
  name: string;
  title: string;
  description: string;
  level: Level;
  schema: z.ZodObject;
  run(args: any, ctx: RegistryContext): Promise<ToolResult> | ToolResult;
}

const sessionArg = z.string().max(100).optional()
  .describe('your session id (from create_scope / `cg scope create`); may instead come in the request _meta or the server environment');
const projectArg = z.string().max(100).optional().describe('only this project (a name from status); default: every project in your scope');
const symbolTarget = {
  symbol_id: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional().describe('symbol id from the symbols tool (give project too)'),
  symbol_name: z.string().min(1).max(512).optional().describe('symbol name: qualified (Class.method), plain, or file:name'),
};

function needSymbol(a: { symbol_id?: number; symbol_name?: string; project?: string }): void {
  if (a.symbol_id === undefined && !a.symbol_name) throw new CgError('usage', 'Give symbol_id or symbol_name', 'symbol_name takes a qualified name such as PUM_REST.register_routes.');
  if (a.symbol_id !== undefined && !a.project) throw new CgError('usage', 'symbol_id needs project: ids are per project', 'Pass the project the symbols tool named.');
}

/** Cross-project data is for collection and global scopes only; a project scope gets none (not an empty list that looks like "no links"). */
function crossAllowed(ctx: RegistryContext): Set<number> | null {
  return ctx.scope.level === 'project' ? null : new Set(ctx.projects.map((p) => p.id));
}

function inScope(ctx: RegistryContext, name: string | undefined): Project[] {
  if (!name) return ctx.projects;
  const p = ctx.projects.find((x) => x.name === name);
  // The same words whether the project exists outside the scope or not at all: a scope does not reveal what it cannot read.
  if (!p) {
    throw new CgError('not_found', `No project "${name.slice(0, 100)}" in this session's scope`, 'Call status to list the projects you can read.',
      { reason: 'scope' });
  }
  return [p];
}

export const REGISTRY_TOOLS: RegistryTool[] = [
  {
    name: 'search',
    title: 'Search code and documents across projects',
    level: 'any',
    description: 'Hybrid search (full-text, meaning, graph) over every project in your scope, merged by reciprocal-rank fusion; '
      + 'each result names its project, file, lines, content, score, type (code or document) and freshness. Use it to find where '
      + 'something is done or documented when you do not know the project or file. filter_type picks code, documents or both.',
    schema: z.object({
      query: z.string().min(1).max(MAX_QUERY_CHARS).describe('natural-language query or code keyword'),
      limit: z.number().int().min(1).max(50).default(10).describe('max results (1-50, default 10)'),
      filter_type: z.enum(FILTER_TYPES).default('all').describe('all (default), code, or documents (Markdown, YAML, JSON, PDF, text)'),
      filter_language: z.string().max(40).nullable().optional().describe('only this language or document format (php, typescript, markdown…)'),
      project: projectArg,
      session_id: sessionArg,
    }),
    async run(a, ctx) {
      const res = await federatedSearch(ctx.pool, inScope(ctx, a.project), { query: a.query, limit: a.limit, filterType: a.filter_type, language: a.filter_language });
      return { body: res as unknown as Record<string, unknown>, count: res.results.length };
    },
  },
  {
    name: 'symbols',
    title: 'List symbols across projects',
    level: 'any',
    description: 'Functions, classes, methods and constants by name (glob or substring) in every project in your scope, each with '
      + 'its project, id, kind, file, line and signature. Use it to locate a definition you can name.',
    schema: z.object({
      query: z.string().min(1).max(512).default('*').describe('symbol name: glob (get_*), substring or qualified name; * for all'),
      kind: z.enum(SYMBOL_KINDS).nullable().optional().describe('only this kind'),
      language: z.string().max(40).nullable().optional().describe('only this language'),
      file_pattern: z.string().max(512).nullable().optional().describe('only files matching this glob'),
      limit: z.number().int().min(1).max(500).default(50).describe('max results (1-500, default 50)'),
      project: projectArg,
      session_id: sessionArg,
    }),
    async run(a, ctx) {
      const res = await federatedSymbols(ctx.pool, inScope(ctx, a.project), { query: a.query, kind: a.kind ?? undefined, language: a.language,
        filePattern: a.file_pattern, limit: a.limit });
      return { body: res as unknown as Record<string, unknown>, count: res.symbols.length };
    },
  },
  {
    name: 'references',
    title: 'References to a symbol',
    level: 'any',
    description: 'Callers and callees of a symbol in each project in scope that defines it; in a collection or global scope also the '
      + 'other projects that hook into the hooks it fires or call the routes it declares (cross_project). Use it before changing a function.',
    schema: z.object({
      ...symbolTarget,
      kind: z.enum(['calls', 'imports', 'extends', 'all']).default('all').describe('calls, extends (type hierarchy) or all'),
      direction: z.enum(['callers', 'callees', 'both']).default('both'),
      depth: z.number().int().min(1).max(5).default(1),
      project: projectArg,
      session_id: sessionArg,
    }),
    async run(a, ctx) {
      needSymbol(a);
      const res = await federatedReferences(ctx.pool, ctx.db, inScope(ctx, a.project), { name: a.symbol_name, id: a.symbol_id, project: a.project,
        direction: a.direction, depth: a.depth, hierarchy: a.kind === 'extends' || a.kind === 'all' }, crossAllowed(ctx));
      const count = res.references.reduce((n, r) => n + r.callers.length + r.callees.length, 0)
        + (res.cross_project ? res.cross_project.incoming.length + res.cross_project.outgoing.length : 0);
      return { body: res as unknown as Record<string, unknown>, count };
    },
  },
  {
    name: 'file_context',
    title: "A file's outline",
    level: 'any',
    description: "One file's definitions, imports and exports, without its body. file_path is relative to the project root "
      + '(absolute paths inside it are accepted; anything outside it is refused). Give project when your scope has several.',
    schema: z.object({
      file_path: z.string().min(1).max(1024).describe('path relative to the project root'),
      project: projectArg,
      session_id: sessionArg,
    }),
    run(a, ctx) {
      const candidates = inScope(ctx, a.project);
      if (candidates.length !== 1) {
        throw new CgError('usage', 'Several projects are in scope: name the file\'s project', `Pass project: one of ${candidates.map((p) => p.name).join(', ')}.`);
      }
      const p = candidates[0];
      const rel = resolveInRepo(p.path, a.file_path);
      return ctx.pool.read(p, (snap) => {
        const res = fileOverview(snap.db, snap.root, rel, snap.root);
        return { body: { status: 'ok', project: p.name, file_path: res.file, ...res }, count: res.symbols.length };
      });
    },
  },
  {
    name: 'impact',
    title: 'What a change breaks',
    level: 'any',
    description: 'Impact of changing a symbol: direct and transitive callers, affected files and a risk level in its project; in a '
      + 'collection or global scope also the other projects that hook into or call it, and their callers.',
    schema: z.object({
      ...symbolTarget,
      depth: z.number().int().min(1).max(6).default(2).describe('levels of callers (1-6, default 2)'),
      use_graph: z.boolean().default(false).describe('accepted for the contract; the traversal always uses the call graph'),
      project: projectArg,
      session_id: sessionArg,
    }),
    async run(a, ctx) {
      needSymbol(a);
      const res = await federatedImpact(ctx.pool, ctx.db, inScope(ctx, a.project), { name: a.symbol_name, id: a.symbol_id, project: a.project, depth: a.depth },
        crossAllowed(ctx));
      return { body: res as unknown as Record<string, unknown>, count: res.affected_files.length };
    },
  },
  {
    name: 'cross_refs',
    title: 'References across projects',
    level: 'collection',
    description: 'Where a WordPress hook, a REST route or a symbol links projects: each edge (from project/symbol/file/line, to '
      + 'project/symbol, kind hooks_into or depends_on, confidence) and every site that fires, hooks, declares or calls it. '
      + 'Collection and global scopes only.',
    schema: z.object({
      symbol_name: z.string().min(1).max(512).describe('hook name (pum_init), route (/wp-json/pum/v1/popups) or symbol'),
      kind: z.enum(CROSS_KINDS).default('all'),
      session_id: sessionArg,
    }),
    run(a, ctx) {
      const res = crossRefs(ctx.db, a.symbol_name, a.kind, crossAllowed(ctx)!);
      return { body: { status: res.edges.length || res.sites.length ? 'ok' : 'empty_results', symbol_name: a.symbol_name, ...res }, count: res.edges.length };
    },
  },
  {
    name: 'collection_map',
    title: 'How the projects depend on each other',
    level: 'collection',
    description: 'The projects in your scope with their symbol counts and which others each hooks into or calls, as JSON, text or a '
      + 'Mermaid flowchart. Collection and global scopes only.',
    schema: z.object({
      visualization: z.enum(['json', 'text', 'mermaid']).default('json'),
      session_id: sessionArg,
    }),
    run(a, ctx) {
      const map = collectionMap(ctx.db, crossAllowed(ctx)!);
      const text = a.visualization === 'mermaid' ? collectionMermaid(map) : a.visualization === 'text' ? collectionText(map) : undefined;
      return { body: map as unknown as Record<string, unknown>, count: map.projects.length, text };
    },
  },
  {
    name: 'status',
    title: 'Index health',
    level: 'any',
    description: 'The projects in your scope: symbols, status (indexed, indexing, failed), last indexed, and queued jobs; with a '
      + 'global scope also totals and sessions. Call it first to learn which projects you can read.',
    schema: z.object({
      project: z.string().max(100).nullable().optional(),
      detailed: z.boolean().default(false),
      session_id: sessionArg,
    }),
    run(a, ctx) {
      const projects = inScope(ctx, a.project ?? undefined);
      const rows = projects.map((p) => ({
        name: p.name, symbols: p.symbols, status: p.status, indexed_at: p.indexedAt, languages: p.languages, collections: p.collections,
        ...(a.detailed ? { path: p.path, indexed_commit: p.indexedCommit, last_error: p.lastError, index_bytes: indexBytes(p) } : {}),
      }));
      const body: Record<string, unknown> = { status: 'ok', scope: { level: ctx.scope.level, agent_id: ctx.scope.agentId,
        valid_until: new Date(ctx.scope.validUntil).toISOString() }, projects: rows };
      if (ctx.scope.level === 'global') {
        const ids = new Set(projects.map((p) => p.id));
        body.global = {
          total_projects: projects.length,
          total_symbols: projects.reduce((n, p) => n + p.symbols, 0),
          total_cross_project_edges: ctx.db.prepare('SELECT COUNT(*) FROM cross_project_edges').pluck().get(),
          last_reindex: projects.map((p) => p.indexedAt).filter(Boolean).sort().at(-1) ?? null,
          index_size_mb: Math.round(projects.reduce((n, p) => n + indexBytes(p), 0) / 1e4) / 100,
        };
        body.jobs = listJobs(ctx.db, { status: ['pending', 'in_progress', 'failed'] }).filter((j) => ids.has(j.projectId));
        body.scope_registry = ctx.db.prepare(`SELECT COUNT(DISTINCT agent_id) AS total_agents, COUNT(*) AS active_sessions FROM sessions WHERE valid_until > ?`)
          .get(Date.now());
        body.collections = listCollections(ctx.db);
      }
      return { body, count: rows.length };
    },
  },
  // Admin tools: a global-scope session only.
  {
    name: 'register_project',
    title: 'Register a project',
    level: 'global',
    description: 'Register a repository (absolute path) as a project and queue its indexing. Global scope only.',
    schema: z.object({
      path: z.string().min(1).max(4096).describe('absolute path to the repository root'),
      name: z.string().regex(NAME_PATTERN).describe('project name (letters, digits, . _ -)'),
      languages: z.array(z.string().max(40)).max(20).default([]),
      collection: z.string().regex(NAME_PATTERN).nullable().optional(),
      session_id: sessionArg,
    }),
    async run(a, ctx) {
      if (!a.path.startsWith('/')) throw new CgError('usage', 'path must be absolute', 'Pass the repository root as an absolute path.');
      const p = addProject(ctx.db, { path: a.path, name: a.name, languages: a.languages, collection: a.collection ?? undefined });
      const job = enqueueJob(ctx.db, p.id, 'incremental');
      void ctx.kick();
      return { body: { project_id: p.id, project_name: p.name, path: p.path, status: 'registered', job_id: job,
        message: `Registered; indexing is queued (job ${job}). status shows when it is indexed.` }, count: 1 };
    },
  },
  {
    name: 'register_collection',
    title: 'Create or change a collection',
    level: 'global',
    description: 'Create a collection, or add projects to one (by name). Global scope only.',
    schema: z.object({
      name: z.string().regex(NAME_PATTERN),
      projects: z.array(z.string().regex(NAME_PATTERN)).max(1000),
      description: z.string().max(1000).nullable().optional(),
      session_id: sessionArg,
    }),
    run(a, ctx) {
      createCollection(ctx.db, a.name, { description: a.description ?? null });
      const c = addMembers(ctx.db, a.name, a.projects);
      const ids = c.projects.map((n) => requireProject(ctx.db, n).id);
      const edges = collectionMap(ctx.db, new Set(ids)).cross_project_edges;
      return { body: { collection_id: c.id, name: c.name, projects: ids, project_names: c.projects, cross_project_edges: edges }, count: ids.length };
    },
  },
  {
    name: 'reindex',
    title: 'Re-index projects',
    level: 'global',
    description: 'Queue a full or incremental re-index of one project (or all); with async false (the default) wait for it. Global scope only.',
    schema: z.object({
      project: z.string().max(100).nullable().optional(),
      mode: z.enum(['full', 'incremental']).default('incremental'),
      async: z.boolean().default(false),
      session_id: sessionArg,
    }),
    async run(a, ctx) {
      const targets = inScope(ctx, a.project ?? undefined);
      const started = performance.now();
      const jobs = targets.map((p) => enqueueJob(ctx.db, p.id, a.mode));
      const done = ctx.kick();
      if (!a.async) await done;
      const after = targets.map((p) => projectById(ctx.db, p.id)!);
      const errors = after.filter((p) => p.status === 'failed').map((p) => `${p.name}: ${p.lastError}`);
      return { body: { project: a.project ?? null, projects: after.map((p) => p.name), mode: a.mode, jobs,
        status: a.async ? 'started' : 'completed', symbols_processed: after.reduce((n, p) => n + p.symbols, 0),
        duration_seconds: Math.round(performance.now() - started) / 1000, errors }, count: targets.length };
    },
  },
  {
    name: 'create_scope',
    title: 'Create a session for an agent',
    level: 'global',
    description: `Create a scoped session (opaque UUID4, ${DEFAULT_LIFETIME_MINUTES} minutes by default) for a task agent: project scope lists `
      + 'projects, collection scope lists collections, global sees all. Hand the session_id to the agent. Global scope only.',
    schema: z.object({
      agent_id: z.string().min(1).max(200),
      level: z.enum(SCOPE_LEVELS as [string, ...string[]]),
      projects: z.array(z.string().max(100)).max(200).default([]),
      collections: z.array(z.string().max(100)).max(200).default([]),
      lifetime_minutes: z.number().int().min(1).max(MAX_LIFETIME_MINUTES).default(DEFAULT_LIFETIME_MINUTES),
      session_id: sessionArg,
    }),
    run(a, ctx) {
      const res = createScope(ctx.db, { agentId: a.agent_id, level: a.level, projects: a.projects, collections: a.collections, lifetimeMinutes: a.lifetime_minutes });
      return { body: res as unknown as Record<string, unknown>, count: 1 };
    },
  },
  {
    name: 'revoke_scope',
    title: "Revoke an agent's sessions",
    level: 'global',
    description: "Revoke every session of an agent (or one, by revoke_session_id); the agent's next call is refused. Global scope only.",
    schema: z.object({
      agent_id: z.string().min(1).max(200).optional(),
      revoke_session_id: z.string().max(100).optional(),
      session_id: sessionArg,
    }),
    run(a, ctx) {
      const res = revokeScope(ctx.db, { agentId: a.agent_id, sessionId: a.revoke_session_id });
      return { body: { agent_id: a.agent_id ?? null, status: res.revoked ? 'revoked' : 'not_found', revoked: res.revoked,
        message: res.revoked ? `${res.revoked} session(s) revoked` : 'No session matched' }, count: res.revoked };
    },
  },
];

function indexBytes(p: Project): number {
  try {
    const file = currentDbPath(p.path);
    return file ? fs.statSync(file).size : 0;
  } catch {
    return 0;
  }
}

