import { randomUUID } from 'node:crypto';
import { CgError } from '../errors.js';
import type { RegistryDb } from './db.js';
import { listProjects, membersOf, requireCollection, requireProject } from './projects.js';

/**
 * Scoped sessions (CodeMem "Access control"): an opaque UUID4 whose scope lives only here. Every call
 * in registry mode looks the id up (deny by default): an id that is not in the table (forged), past
 * `valid_until` (expired) or deleted (revoked) is refused, and the scope used is always the stored one.
 */
export type ScopeLevel = 'project' | 'collection' | 'global';
export const SCOPE_LEVELS: readonly ScopeLevel[] = ['project', 'collection', 'global'];

export const DEFAULT_LIFETIME_MINUTES = 30;
export const MAX_LIFETIME_MINUTES = 24 * 60;

export interface CreateScope {
  agentId: string;
  level: ScopeLevel;
  projects?: string[];
  collections?: string[];
  lifetimeMinutes?: number;
}

export interface CreatedScope {
  agent_id: string;
  session_id: string;
  level: ScopeLevel;
  projects: string[];
  collections: string[];
  valid_until: string;
  message: string;
}

const AGENT_ID = /^[\w.:@-]{1,200}$/;

export function createScope(db: RegistryDb, input: CreateScope, now = Date.now()): CreatedScope {
  if (!AGENT_ID.test(input.agentId)) {
    throw new CgError('usage', 'The agent id must be 1-200 letters, digits or . _ : @ -', 'For example: pm-core-task-001.');
  }
  if (!SCOPE_LEVELS.includes(input.level)) throw new CgError('usage', `Unknown scope level "${input.level}"`, 'Use project, collection or global.');
  const lifetime = input.lifetimeMinutes ?? DEFAULT_LIFETIME_MINUTES;
  if (!Number.isInteger(lifetime) || lifetime < 1 || lifetime > MAX_LIFETIME_MINUTES) {
    throw new CgError('usage', `The lifetime must be 1 to ${MAX_LIFETIME_MINUTES} minutes, not ${lifetime}`, `The default is ${DEFAULT_LIFETIME_MINUTES}.`);
  }
  const projects = [...new Set(input.projects ?? [])];
  const collections = [...new Set(input.collections ?? [])];
  if (input.level === 'project' && (!projects.length || collections.length)) {
    throw new CgError('usage', 'A project scope names one or more projects and no collections', 'Pass --project NAME (repeatable).');
  }
  if (input.level === 'collection' && (!collections.length || projects.length)) {
    throw new CgError('usage', 'A collection scope names one or more collections and no projects', 'Pass --collection NAME (repeatable).');
  }
  if (input.level === 'global' && (projects.length || collections.length)) {
    throw new CgError('usage', 'A global scope sees every project; it takes no project or collection list', 'Leave out --project and --collection.');
  }
  const projectIds = projects.map((p) => requireProject(db, p).id);
  const collectionIds = collections.map((c) => requireCollection(db, c).id);
  const id = randomUUID();
  const validUntil = now + lifetime * 60_000;
  db.transaction(() => {
    collectExpired(db, now);
    db.prepare(`INSERT INTO sessions (id, agent_id, scope_level, projects_list, collections_list, valid_until, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?)`).run(id, input.agentId, input.level, JSON.stringify(projectIds), JSON.stringify(collectionIds), validUntil, now);
  })();
  return {
    agent_id: input.agentId, session_id: id, level: input.level, projects, collections,
    valid_until: new Date(validUntil).toISOString(),
    message: `Session for ${input.agentId} (${input.level} scope) valid for ${lifetime} minutes; pass it as session_id, in _meta, or as CG_SESSION.`,
  };
}

/** The stored scope of a valid session. */
export interface Scope {
  sessionId: string;
  agentId: string;
  level: ScopeLevel;
  projectIds: number[];
  collectionIds: number[];
  validUntil: number;
}

/** Why a session was refused; the message never says whether an id exists but expired, to a forger. */
export class SessionError extends CgError {
  constructor(readonly reason: 'missing' | 'malformed' | 'unknown' | 'expired', message: string) {
    super('usage', message, 'Ask the persistence agent for a new session (create_scope, or `cg scope create`).');
  }
}

const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Looks a session up. One indexed read (a primary-key lookup), so it is cheap enough for every call. */
export function validateSession(db: RegistryDb, sessionId: string | undefined | null, now = Date.now()): Scope {
  if (!sessionId) throw new SessionError('missing', 'This server is in registry mode and every call needs a session');
  const id = sessionId.trim().toLowerCase();
  if (!UUID4.test(id)) throw new SessionError('malformed', 'The session id is not a valid session');
  const row = stmt(db).get(id) as { agent_id: string; scope_level: ScopeLevel; projects_list: string; collections_list: string;
    valid_until: number } | undefined;
  if (!row) throw new SessionError('unknown', 'The session is not valid (unknown, revoked or expired)');
  if (row.valid_until <= now) throw new SessionError('expired', 'The session is not valid (unknown, revoked or expired)');
  return { sessionId: id, agentId: row.agent_id, level: row.scope_level, projectIds: JSON.parse(row.projects_list),
    collectionIds: JSON.parse(row.collections_list), validUntil: row.valid_until };
}

const statements = new WeakMap<RegistryDb, ReturnType<RegistryDb['prepare']>>();
function stmt(db: RegistryDb) {
  let s = statements.get(db);
  if (!s) statements.set(db, (s = db.prepare('SELECT agent_id, scope_level, projects_list, collections_list, valid_until FROM sessions WHERE id = ?')));
  return s;
}

/** Revokes every session of an agent (the spec's revoke_scope(agent_id)), or one session by its id. */
export function revokeScope(db: RegistryDb, target: { agentId?: string; sessionId?: string }): { revoked: number } {
  if (target.sessionId) return { revoked: db.prepare('DELETE FROM sessions WHERE id = ?').run(target.sessionId.trim().toLowerCase()).changes };
  if (target.agentId) return { revoked: db.prepare('DELETE FROM sessions WHERE agent_id = ?').run(target.agentId).changes };
  throw new CgError('usage', 'Name the agent (or the session) to revoke', 'Pass an agent id, or --session ID.');
}

/** Deletes expired rows: they can never be valid again. Runs on every create and periodically in the agent. */
export function collectExpired(db: RegistryDb, now = Date.now()): number {
  return db.prepare('DELETE FROM sessions WHERE valid_until <= ?').run(now).changes;
}

export interface SessionInfo {
  agent_id: string;
  level: ScopeLevel;
  projects: string[];
  collections: string[];
  valid_until: string;
  created_at: string;
  /** The id's first 8 characters: enough to tell sessions apart, too little to use one. */
  session_prefix: string;
}

export function listSessions(db: RegistryDb, now = Date.now()): SessionInfo[] {
  const names = (table: string) => new Map((db.prepare(`SELECT id, name FROM ${table}`).all() as { id: number; name: string }[]).map((r) => [r.id, r.name]));
  const projects = names('projects');
  const collections = names('collections');
  const rows = db.prepare('SELECT * FROM sessions WHERE valid_until > ? ORDER BY created_at').all(now) as
    { id: string; agent_id: string; scope_level: ScopeLevel; projects_list: string; collections_list: string; valid_until: number; created_at: number }[];
  return rows.map((r) => ({
    agent_id: r.agent_id, level: r.scope_level,
    projects: (JSON.parse(r.projects_list) as number[]).map((i) => projects.get(i) ?? `(removed #${i})`),
    collections: (JSON.parse(r.collections_list) as number[]).map((i) => collections.get(i) ?? `(removed #${i})`),
    valid_until: new Date(r.valid_until).toISOString(), created_at: new Date(r.created_at).toISOString(), session_prefix: r.id.slice(0, 8),
  }));
}

/**
 * The project ids a scope may read, as of now: a collection scope follows the collection's current
 * members; a global scope sees every registered project.
 */
export function projectsInScope(db: RegistryDb, scope: Pick<Scope, 'level' | 'projectIds' | 'collectionIds'>): number[] {
  if (scope.level === 'global') return listProjects(db).map((p) => p.id);
  if (scope.level === 'collection') return membersOf(db, scope.collectionIds);
  const existing = new Set(listProjects(db).map((p) => p.id));
  return scope.projectIds.filter((id) => existing.has(id));
}
