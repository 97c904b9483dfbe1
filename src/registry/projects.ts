import fs from 'node:fs';
import path from 'node:path';
import { CgError } from '../errors.js';
import type { RegistryDb } from './db.js';

/** A registered project as commands and tools show it. */
export interface Project {
  id: number;
  name: string;
  path: string;
  languages: string[];
  collections: string[];
  status: 'registered' | 'indexing' | 'indexed' | 'failed';
  indexedAt: string | null;
  indexedCommit: string | null;
  symbols: number;
  lastError: string | null;
}

interface ProjectRow {
  id: number;
  name: string;
  path: string;
  languages: string;
  status: Project['status'];
  indexed_at: number | null;
  indexed_commit: string | null;
  symbols: number;
  last_error: string | null;
  collections: string | null;
}

const SELECT = `SELECT p.id, p.name, p.path, p.languages, p.status, p.indexed_at, p.indexed_commit, p.symbols, p.last_error,
    (SELECT json_group_array(c.name) FROM collection_projects cp JOIN collections c ON c.id = cp.collection_id
      WHERE cp.project_id = p.id) AS collections
  FROM projects p`;

function toProject(r: ProjectRow): Project {
  return {
    id: r.id, name: r.name, path: r.path, languages: JSON.parse(r.languages), status: r.status,
    collections: (JSON.parse(r.collections ?? '[]') as string[]).sort(),
    indexedAt: r.indexed_at ? new Date(r.indexed_at).toISOString() : null, indexedCommit: r.indexed_commit,
    symbols: r.symbols, lastError: r.last_error,
  };
}

/** Names are what agents and people type: short, no spaces or path characters. */
export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export function checkName(what: string, name: string): string {
  if (!NAME_PATTERN.test(name)) {
    throw new CgError('usage', `"${name.slice(0, 120)}" is not a valid ${what} name`,
      'Use 1-100 letters, digits, dots, dashes or underscores, starting with a letter or digit (e.g. popup-maker).');
  }
  return name;
}

export function listProjects(db: RegistryDb): Project[] {
  return (db.prepare(`${SELECT} ORDER BY p.name`).all() as ProjectRow[]).map(toProject);
}

export function projectByName(db: RegistryDb, name: string): Project | null {
  const row = db.prepare(`${SELECT} WHERE p.name = ?`).get(name) as ProjectRow | undefined;
  return row ? toProject(row) : null;
}

export function projectById(db: RegistryDb, id: number): Project | null {
  const row = db.prepare(`${SELECT} WHERE p.id = ?`).get(id) as ProjectRow | undefined;
  return row ? toProject(row) : null;
}

/** The project for a name, or an error that lists the registered ones. */
export function requireProject(db: RegistryDb, name: string): Project {
  const p = projectByName(db, name);
  if (p) return p;
  const names = listProjects(db).map((x) => x.name);
  throw new CgError('not_found', `No registered project is named "${name.slice(0, 120)}"`,
    names.length ? `Registered projects: ${names.slice(0, 30).join(', ')}${names.length > 30 ? ', …' : ''}.`
      : 'Register one with `cg project add PATH`.');
}

export interface AddProject {
  path: string;
  name?: string;
  languages?: string[];
  collection?: string;
}

/**
 * Registers a repository: its absolute, real path (links resolved, so one repository is never two
 * projects) under a unique name (the folder's name by default). Registering the same path again is
 * an error that names the existing project.
 */
export function addProject(db: RegistryDb, input: AddProject): Project {
  let real: string;
  try {
    real = fs.realpathSync(path.resolve(input.path));
  } catch {
    throw new CgError('not_found', `No such directory: ${path.resolve(input.path)}`, 'Pass the path of a repository to register.');
  }
  if (!fs.statSync(real).isDirectory()) throw new CgError('usage', `${real} is not a directory`, 'Pass the repository folder.');
  const name = checkName('project', input.name ?? sanitize(path.basename(real)));
  const existing = db.prepare('SELECT name, path FROM projects WHERE path = ? OR name = ?').all(real, name) as { name: string; path: string }[];
  for (const e of existing) {
    if (e.path === real) {
      throw new CgError('usage', `${real} is already registered as "${e.name}"`, `Use \`cg project remove ${e.name}\` first to register it again.`);
    }
    throw new CgError('usage', `A project named "${name}" is already registered (${e.path})`, 'Pick another name with --name.');
  }
  return db.transaction(() => {
    const id = Number(db.prepare('INSERT INTO projects (name, path, languages, created_at) VALUES (?, ?, ?, ?)')
      .run(name, real, JSON.stringify(input.languages ?? []), Date.now()).lastInsertRowid);
    if (input.collection) addMembers(db, input.collection, [name], { create: true });
    return projectById(db, id)!;
  })();
}

function sanitize(base: string): string {
  const s = base.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 100);
  return s || 'project';
}

/** Unregisters a project: its memberships, jobs and cross-project rows go with it (foreign keys); its index stays. */
export function removeProject(db: RegistryDb, name: string): Project {
  const p = requireProject(db, name);
  db.prepare('DELETE FROM projects WHERE id = ?').run(p.id);
  return p;
}

export function setProjectStatus(db: RegistryDb, id: number, status: Project['status'], extra: {
  error?: string | null; languages?: string[]; commit?: string | null; symbols?: number; indexedAt?: number;
} = {}): void {
  db.prepare(`UPDATE projects SET status = ?, last_error = ?,
      languages = COALESCE(?, languages), indexed_commit = COALESCE(?, indexed_commit), symbols = COALESCE(?, symbols),
      indexed_at = COALESCE(?, indexed_at) WHERE id = ?`)
    .run(status, extra.error ?? null, extra.languages ? JSON.stringify(extra.languages) : null, extra.commit ?? null,
      extra.symbols ?? null, extra.indexedAt ?? null, id);
}

// Collections ---------------------------------------------------------------------------------------

export interface Collection {
  id: number;
  name: string;
  description: string | null;
  source: string | null;
  projects: string[];
}

export function listCollections(db: RegistryDb): Collection[] {
  const rows = db.prepare(`SELECT c.id, c.name, c.description, c.source,
      (SELECT json_group_array(p.name) FROM collection_projects cp JOIN projects p ON p.id = cp.project_id
        WHERE cp.collection_id = c.id) AS projects
    FROM collections c ORDER BY c.name`).all() as (Omit<Collection, 'projects'> & { projects: string })[];
  return rows.map((r) => ({ ...r, projects: (JSON.parse(r.projects) as string[]).sort() }));
}

export function collectionByName(db: RegistryDb, name: string): Collection | null {
  return listCollections(db).find((c) => c.name === name) ?? null;
}

export function requireCollection(db: RegistryDb, name: string): Collection {
  const c = collectionByName(db, name);
  if (c) return c;
  const names = listCollections(db).map((x) => x.name);
  throw new CgError('not_found', `No collection is named "${name.slice(0, 120)}"`,
    names.length ? `Collections: ${names.slice(0, 30).join(', ')}.` : 'Create one with `cg collection create NAME --project P...`.');
}

/** Creates a collection, or updates its description when it exists; members are added with addMembers. */
export function createCollection(db: RegistryDb, name: string, opts: { description?: string | null; source?: string | null } = {}): Collection {
  checkName('collection', name);
  db.prepare(`INSERT INTO collections (name, description, source, created_at) VALUES (?, ?, ?, ?)
      ON CONFLICT(name) DO UPDATE SET description = COALESCE(excluded.description, description), source = COALESCE(excluded.source, source)`)
    .run(name, opts.description ?? null, opts.source ?? null, Date.now());
  return collectionByName(db, name)!;
}

/** Adds registered projects to a collection (created first when `create`); unknown projects are an error, nothing half-added. */
export function addMembers(db: RegistryDb, collection: string, projects: string[], opts: { create?: boolean } = {}): Collection {
  return db.transaction(() => {
    const c = opts.create ? createCollection(db, collection) : requireCollection(db, collection);
    for (const name of projects) {
      const p = requireProject(db, name);
      db.prepare('INSERT OR IGNORE INTO collection_projects (collection_id, project_id) VALUES (?, ?)').run(c.id, p.id);
    }
    return collectionByName(db, collection)!;
  })();
}

export function removeMembers(db: RegistryDb, collection: string, projects: string[]): Collection {
  return db.transaction(() => {
    const c = requireCollection(db, collection);
    for (const name of projects) {
      const p = requireProject(db, name);
      db.prepare('DELETE FROM collection_projects WHERE collection_id = ? AND project_id = ?').run(c.id, p.id);
    }
    return collectionByName(db, collection)!;
  })();
}

export function deleteCollection(db: RegistryDb, name: string): Collection {
  const c = requireCollection(db, name);
  db.prepare('DELETE FROM collections WHERE id = ?').run(c.id);
  return c;
}

/** Project ids of the members of collections (by id). */
export function membersOf(db: RegistryDb, collectionIds: number[]): number[] {
  if (!collectionIds.length) return [];
  return db.prepare(`SELECT DISTINCT project_id FROM collection_projects WHERE collection_id IN (SELECT value FROM json_each(?))`)
    .pluck().all(JSON.stringify(collectionIds)) as number[];
}
