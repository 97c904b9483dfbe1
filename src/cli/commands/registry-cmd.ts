import os from 'node:os';
import type { Command } from 'commander';
import { openRegistry, type RegistryDb } from '../../registry/db.js';
import { cgHome } from '../../registry/home.js';
import {
  addMembers, addProject, createCollection, deleteCollection, listCollections, listProjects, removeMembers, removeProject, requireCollection,
  requireProject,
} from '../../registry/projects.js';
import { loadManifest } from '../../registry/manifest.js';
import { drainJobs, indexNow, type JobOutcome } from '../../registry/indexing.js';
import { enqueueJob } from '../../registry/jobs.js';
import { createScope, listSessions, revokeScope, SCOPE_LEVELS, type ScopeLevel } from '../../registry/sessions.js';
import { audit, readAudit } from '../../registry/audit.js';
import { collectionMap, collectionMermaid, collectionText, crossRefs, CROSS_KINDS, type CrossKind } from '../../registry/crossrefs/query.js';
import { CgError } from '../../errors.js';
import { emit, formatDuration, plural, table } from '../output.js';
import { examples, parseIntInRange, usageError } from '../args.js';

/**
 * `cg project`, `cg collection`, `cg scope`, `cg audit`: the global registry (CG_HOME, else the XDG
 * data directory) by hand. Whoever runs the CLI owns the machine's registry, so these need no session;
 * what they change is written to the audit log as agent `cli:<user>`.
 */
export function withRegistry<T>(fn: (db: RegistryDb) => Promise<T> | T): Promise<T> {
  const db = openRegistry();
  return Promise.resolve().then(() => fn(db)).finally(() => db.close());
}

const CLI_AGENT = `cli:${safeUser()}`;

function safeUser(): string {
  try {
    return os.userInfo().username.replace(/[^\w.-]/g, '_') || 'user';
  } catch {
    return 'user';
  }
}

function logAdmin(db: RegistryDb, tool: string, count: number | null, detail: string): void {
  audit(db, { agentId: CLI_AGENT, scopeLevel: 'global', tool, outcome: 'ok', resultCount: count, detail });
}

const collect = (v: string, prev: string[] = []) => [...prev, ...v.split(',').map((s) => s.trim()).filter(Boolean)];

export function registerProject(program: Command): void {
  const project = program.command('project').description(`the projects of the global registry (${cgHome()}; CG_HOME overrides)`);
  project.command('add')
    .description('register a repository as a project and index it (its index stays in its own .codegraph/)')
    .argument('<path>', 'the repository')
    .option('--name <name>', 'project name (default: the folder name)')
    .option('--collection <name>', 'also add it to this collection (created when missing)')
    .option('--languages <list>', 'languages, comma-separated (default: what the index finds)', collect)
    .option('--no-index', 'register only; the agent (or `cg project reindex`) indexes it later')
    .option('--json', 'print JSON: {project, jobs}')
    .addHelpText('after', examples(['cg project add ~/src/my-plugin --collection wp', 'cg project add . --name api --no-index --json']))
    .action((dir: string, opts: { name?: string; collection?: string; languages?: string[]; index: boolean; json?: boolean }) =>
      withRegistry(async (db) => {
        const p = addProject(db, { path: dir, name: opts.name, collection: opts.collection, languages: opts.languages });
        logAdmin(db, 'register_project', 1, p.name);
        const jobs = opts.index ? await indexNow(db, p, 'incremental') : (enqueueJob(db, p.id, 'incremental'), []);
        const after = requireProject(db, p.name);
        emit(opts, { project: after, jobs: jobs.map(jobJson) }, () => [
          `registered ${after.name} (${after.path})${after.collections.length ? ` in ${after.collections.join(', ')}` : ''}`,
          ...jobs.map(jobLine),
          ...(opts.index ? [] : ['not indexed yet: a running `cg agent` indexes it, or run `cg project reindex`']),
        ].join('\n'));
        failIfAnyFailed(jobs);
      }));
  project.command('list')
    .description('registered projects: path, status, languages, symbols, collections, last indexed')
    .option('--json', 'print JSON: {projects: [...]}')
    .addHelpText('after', examples(['cg project list', 'cg project list --json']))
    .action((opts: { json?: boolean }) => withRegistry((db) => {
      const projects = listProjects(db);
      emit(opts, { home: cgHome(), projects }, (r) => (r.projects.length ? table([
        ['name', 'status', 'symbols', 'languages', 'collections', 'indexed', 'path'],
        ...r.projects.map((p) => [p.name, p.status, String(p.symbols), p.languages.join(',') || '-', p.collections.join(',') || '-',
          p.indexedAt ?? '-', p.path]),
      ]) : `No projects registered in ${r.home}. Add one with \`cg project add PATH\`.`));
    }));
  project.command('remove')
    .description("unregister a project (its memberships, jobs, sessions' access and cross-project links go; its index stays)")
    .argument('<name>', 'project name')
    .option('--json', 'print JSON')
    .addHelpText('after', examples(['cg project remove my-plugin']))
    .action((name: string, opts: { json?: boolean }) => withRegistry((db) => {
      const p = removeProject(db, name);
      logAdmin(db, 'unregister_project', 1, p.name);
      emit(opts, { removed: p }, () => `removed ${p.name} (${p.path}); its index in ${p.path}/.codegraph is left as it was`);
    }));
  project.command('reindex')
    .description('index registered projects now: incremental (what changed) or --full; all projects when none is named')
    .argument('[names...]', 'project names (default: all)')
    .option('--full', 'rebuild from scratch')
    .option('--json', 'print JSON: {jobs}')
    .addHelpText('after', examples(['cg project reindex', 'cg project reindex api client --full']))
    .action((names: string[], opts: { full?: boolean; json?: boolean }) => withRegistry(async (db) => {
      const projects = names.length ? names.map((n) => requireProject(db, n)) : listProjects(db);
      for (const p of projects) enqueueJob(db, p.id, opts.full ? 'full' : 'incremental');
      logAdmin(db, 'reindex', projects.length, projects.map((p) => p.name).join(','));
      const jobs = await drainJobs(db, (o) => { if (!opts.json) process.stderr.write(`${jobLine(o)}\n`); });
      emit(opts, { jobs: jobs.map(jobJson) }, () => `${plural(jobs.length, 'job')} run`);
      failIfAnyFailed(jobs);
    }));
}

function jobJson(o: JobOutcome) {
  return { project: o.job.project, mode: o.job.mode, status: o.error ? 'failed' : 'completed', error: o.error, durationMs: o.durationMs,
    result: o.result ? { mode: o.result.mode, files: o.result.files, symbols: o.result.symbols, commit: o.result.commit } : null };
}

function jobLine(o: JobOutcome): string {
  if (o.error) return `${o.job.project}: failed: ${o.error}`;
  const r = o.result;
  if (!r) return `${o.job.project}: another cg process is writing its index and applies the changes`;
  return `${o.job.project}: ${r.mode === 'none' ? 'up to date' : `${r.mode} index`}, ${plural(r.files, 'file')}, ${plural(r.symbols, 'symbol')} (${formatDuration(o.durationMs)})`;
}

function failIfAnyFailed(jobs: JobOutcome[]): void {
  const failed = jobs.filter((j) => j.error);
  if (failed.length) {
    throw new CgError('io', `Indexing failed for ${failed.map((j) => j.job.project).join(', ')}: ${failed[0].error}`,
      'Fix the cause, then `cg project reindex NAME`; the project stays registered.');
  }
}

export function registerCollection(program: Command): void {
  const collection = program.command('collection').description('groups of projects that are searched together (federation) and linked (cross-project references)');
  collection.command('create')
    .description('create a collection (or load collections from a YAML manifest) and add projects to it')
    .argument('[name]', 'collection name')
    .option('--project <names>', 'member projects (repeatable, or comma-separated)', collect)
    .option('--description <text>', 'what the collection is')
    .option('--manifest <file>', 'load collections from this YAML file (projects with a path there are registered and indexed)')
    .option('--json', 'print JSON')
    .addHelpText('after', examples(['cg collection create wp --project core --project addon', 'cg collection create --manifest collections.yaml']))
    .action((name: string | undefined, opts: { project?: string[]; description?: string; manifest?: string; json?: boolean }) =>
      withRegistry(async (db) => {
        if (opts.manifest) {
          if (name) throw usageError('Give a collection name or --manifest, not both', 'The manifest names its collections.');
          const load = loadManifest(db, opts.manifest);
          const jobs: JobOutcome[] = [];
          for (const n of load.registered) jobs.push(...(await indexNow(db, requireProject(db, n), 'incremental')));
          logAdmin(db, 'register_collection', load.collections.length, `manifest ${opts.manifest}`);
          emit(opts, { collections: load.collections, registered: load.registered, jobs: jobs.map(jobJson) }, (r) => [
            ...r.collections.map((c) => `${c.name}: ${c.projects.join(', ') || '(no projects)'}`),
            ...jobs.map(jobLine),
          ].join('\n'));
          failIfAnyFailed(jobs);
          return;
        }
        if (!name) throw usageError('Name the collection', 'For example: cg collection create pm-plugins --project popup-maker,pum-forms');
        createCollection(db, name, { description: opts.description ?? null });
        const c = addMembers(db, name, opts.project ?? []);
        logAdmin(db, 'register_collection', c.projects.length, c.name);
        emit(opts, { collection: c }, () => `${c.name}: ${c.projects.join(', ') || '(no projects yet: cg collection add NAME PROJECT...)'}`);
      }));
  collection.command('add')
    .description('add registered projects to a collection')
    .argument('<name>', 'collection name')
    .argument('<projects...>', 'project names')
    .option('--json', 'print JSON')
    .addHelpText('after', examples(['cg collection add wp addon-2']))
    .action((name: string, projects: string[], opts: { json?: boolean }) => withRegistry((db) => {
      const c = addMembers(db, name, projects);
      logAdmin(db, 'register_collection', c.projects.length, c.name);
      emit(opts, { collection: c }, () => `${c.name}: ${c.projects.join(', ')}`);
    }));
  collection.command('remove')
    .description('take projects out of a collection, or with --delete remove the collection itself (its projects stay registered)')
    .argument('<name>', 'collection name')
    .argument('[projects...]', 'project names')
    .option('--delete', 'delete the collection')
    .option('--json', 'print JSON')
    .addHelpText('after', examples(['cg collection remove wp addon-2', 'cg collection remove wp --delete']))
    .action((name: string, projects: string[], opts: { delete?: boolean; json?: boolean }) => withRegistry((db) => {
      if (opts.delete) {
        const c = deleteCollection(db, name);
        logAdmin(db, 'delete_collection', 1, c.name);
        emit(opts, { deleted: c }, () => `deleted collection ${c.name}`);
        return;
      }
      if (!projects.length) throw usageError('Name the projects to take out, or pass --delete', `For example: cg collection remove ${name} old-plugin`);
      const c = removeMembers(db, name, projects);
      logAdmin(db, 'register_collection', c.projects.length, c.name);
      emit(opts, { collection: c }, () => `${c.name}: ${c.projects.join(', ') || '(empty)'}`);
    }));
  collection.command('list')
    .description('collections and their projects')
    .option('--json', 'print JSON')
    .addHelpText('after', examples(['cg collection list --json']))
    .action((opts: { json?: boolean }) => withRegistry((db) => {
      const collections = listCollections(db);
      emit(opts, { collections }, (r) => (r.collections.length ? table([
        ['name', 'projects', 'description'],
        ...r.collections.map((c) => [c.name, c.projects.join(',') || '-', c.description ?? '']),
      ]) : 'No collections. Create one with `cg collection create NAME --project P...`.'));
    }));
  collection.command('map')
    .description("the projects' dependency graph through hooks and routes: JSON, text or Mermaid")
    .argument('[name]', 'collection (default: every registered project)')
    .option('--format <f>', 'text, json or mermaid', 'text')
    .option('--json', 'same as --format json')
    .addHelpText('after', examples(['cg collection map wp', 'cg collection map wp --format mermaid']))
    .action((name: string | undefined, opts: { format: string; json?: boolean }) => withRegistry((db) => {
      const format = opts.json ? 'json' : opts.format;
      if (!['text', 'json', 'mermaid'].includes(format)) throw usageError(`Unknown format "${format}"`, 'Use text, json or mermaid.');
      const ids = name ? requireCollection(db, name).projects.map((p) => requireProject(db, p).id) : listProjects(db).map((p) => p.id);
      const map = collectionMap(db, new Set(ids));
      const text = format === 'mermaid' ? collectionMermaid(map) : collectionText(map);
      emit({ json: format === 'json' }, map, () => text);
    }));
  collection.command('refs')
    .description('cross-project references of a hook, route or symbol name: the edges, and every site that fires, hooks, declares or calls it')
    .argument('<name>', 'hook name (pum_init), route (/wp-json/pum/v1/popups) or symbol')
    .option('--collection <name>', 'only within this collection (default: every registered project)')
    .option('--kind <k>', `${CROSS_KINDS.join(', ')}`, 'all')
    .option('--json', 'print JSON: {edges, sites}')
    .addHelpText('after', examples(['cg collection refs wp', 'cg collection refs wp --kind hooks_into --json']))
    .action((name: string, opts: { collection?: string; kind: string; json?: boolean }) => withRegistry((db) => {
      if (!(CROSS_KINDS as readonly string[]).includes(opts.kind)) throw usageError(`Unknown kind "${opts.kind}"`, `Use ${CROSS_KINDS.join(', ')}.`);
      const ids = opts.collection ? requireCollection(db, opts.collection).projects.map((p) => requireProject(db, p).id) : listProjects(db).map((p) => p.id);
      const res = crossRefs(db, name, opts.kind as CrossKind, new Set(ids));
      emit(opts, { name, ...res }, (r) => [
        ...(r.edges.length ? [`${plural(r.edges.length, 'cross-project edge')}:`] : [`No cross-project edge for "${name}".`]),
        ...r.edges.map((e) => `  ${e.from_project}:${e.file_path}:${e.line} ${e.from_symbol} --${e.kind} ${e.name} (${e.via}, ${e.confidence})--> ${e.to_project}:${e.to_file_path}:${e.to_line} ${e.to_symbol}`),
        ...(r.sites.length ? [`${plural(r.sites.length, 'site')}:`] : []),
        ...r.sites.map((s) => `  ${s.project}:${s.file_path}:${s.line} ${s.role} ${s.kind} ${s.name}${s.method ? ` ${s.method}` : ''} (${s.call} in ${s.symbol})`),
      ].join('\n'));
    }));
}

export function registerScope(program: Command): void {
  const scope = program.command('scope').description('scoped sessions for task agents: an opaque id valid 30 minutes, checked on every registry-mode call');
  scope.command('create')
    .description('create a session; prints the session id alone on stdout (details on stderr) so a script can capture it')
    .argument('<agent-id>', 'who the session is for (it appears in the audit log)')
    .requiredOption('--level <level>', `scope level: ${SCOPE_LEVELS.join(', ')}`)
    .option('--project <names>', 'the projects a project scope may read (repeatable or comma-separated)', collect)
    .option('--collection <names>', 'the collections a collection scope may read', collect)
    .option('--minutes <n>', 'lifetime in minutes (1-1440)', '30')
    .option('--json', 'print JSON: {agent_id, session_id, level, valid_until, ...}')
    .addHelpText('after', examples(['cg scope create task-42 --level project --project api', 'cg scope create reviewer --level collection --collection wp --minutes 10 --json']))
    .action((agentId: string, opts: { level: string; project?: string[]; collection?: string[]; minutes: string; json?: boolean }) => withRegistry((db) => {
      if (!(SCOPE_LEVELS as readonly string[]).includes(opts.level)) throw usageError(`Unknown scope level "${opts.level}"`, `Use ${SCOPE_LEVELS.join(', ')}.`);
      const res = createScope(db, { agentId, level: opts.level as ScopeLevel, projects: opts.project, collections: opts.collection,
        lifetimeMinutes: parseIntInRange('--minutes', opts.minutes, 1, 1440) });
      logAdmin(db, 'create_scope', 1, `${agentId} ${opts.level}`);
      if (opts.json) emit(opts, res, () => '');
      else {
        process.stdout.write(`${res.session_id}\n`);
        process.stderr.write(`${res.message}\nvalid until ${res.valid_until}${res.projects.length ? `; projects: ${res.projects.join(', ')}` : ''}${res.collections.length ? `; collections: ${res.collections.join(', ')}` : ''}\n`);
      }
    }));
  scope.command('revoke')
    .description("revoke an agent's sessions (all of them), or one session with --session; effective on the next call")
    .argument('[agent-id]', 'the agent')
    .option('--session <id>', 'one session id')
    .option('--json', 'print JSON: {revoked}')
    .addHelpText('after', examples(['cg scope revoke task-42', 'cg scope revoke --session SESSION_ID']))
    .action((agentId: string | undefined, opts: { session?: string; json?: boolean }) => withRegistry((db) => {
      const res = revokeScope(db, { agentId, sessionId: opts.session });
      logAdmin(db, 'revoke_scope', res.revoked, agentId ?? 'one session');
      emit(opts, res, () => `${plural(res.revoked, 'session')} revoked`);
    }));
  scope.command('list')
    .description('sessions that are still valid (ids shown by their first 8 characters only)')
    .option('--json', 'print JSON: {sessions}')
    .addHelpText('after', examples(['cg scope list']))
    .action((opts: { json?: boolean }) => withRegistry((db) => {
      const sessions = listSessions(db);
      emit(opts, { sessions }, (r) => (r.sessions.length ? table([
        ['agent', 'level', 'projects/collections', 'valid until', 'session'],
        ...r.sessions.map((s) => [s.agent_id, s.level, [...s.projects, ...s.collections].join(',') || '(all)', s.valid_until, `${s.session_prefix}…`]),
      ]) : 'No valid sessions.'));
    }));
}

export function registerAudit(program: Command): void {
  program.command('audit')
    .description('the audit log of registry-mode calls: who (agent), with what scope, which tool, the outcome and how many results')
    .option('--agent <id>', 'only this agent')
    .option('--tool <name>', 'only this tool')
    .option('--since <age>', 'only newer than this: 30m, 2h, 7d')
    .option('--limit <n>', 'at most this many rows, newest first (1-10000)', '50')
    .option('--json', 'print JSON: {entries}')
    .addHelpText('after', examples(['cg audit --since 1h', 'cg audit --agent task-42 --json']))
    .action((opts: { agent?: string; tool?: string; since?: string; limit: string; json?: boolean }) => withRegistry((db) => {
      const since = opts.since ? Date.now() - parseAge(opts.since) : 0;
      const entries = readAudit(db, { agentId: opts.agent, tool: opts.tool, since, limit: parseIntInRange('--limit', opts.limit, 1, 10_000) });
      emit(opts, { entries }, (r) => (r.entries.length ? table([
        ['time', 'agent', 'scope', 'tool', 'outcome', 'results', 'detail'],
        ...r.entries.map((e) => [e.timestamp, e.agent_id, e.scope_level, e.tool_called, e.outcome, e.result_count === null ? '-' : String(e.result_count), e.detail ?? '']),
      ]) : 'No audit entries match.'));
    }));
}

function parseAge(s: string): number {
  const m = /^(\d+)\s*([smhd])$/.exec(s.trim());
  if (!m) throw usageError(`--since takes an age such as 30m, 2h or 7d, not "${s}"`, 'Units: s, m, h, d.');
  return Number(m[1]) * { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 's' | 'm' | 'h' | 'd'];
}

