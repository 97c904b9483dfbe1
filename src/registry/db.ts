import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { CgError, errorMessage } from '../errors.js';
import { cgHome, REGISTRY_FILE } from './home.js';

/**
 * The global registry (CodeMem Appendix A, adapted): projects, collections and their members, scoped
 * sessions, indexing jobs, the audit log, and the cross-project references found in string literals.
 * Foreign keys are on for every connection, so a removed project takes its memberships, jobs and
 * cross-project rows with it, and no row can point at a project or symbol that is not there.
 *
 * Deviations from Appendix A, and why: a project may belong to several collections (a shared library
 * serves many), so membership is a table rather than `projects.collection_id` and `projects_json`;
 * cross-project edges are not tied to one collection (a collection's edges are those whose two ends
 * are both members); times are Unix milliseconds (validity checks compare integers).
 */
export const REGISTRY_VERSION = 1;

const DDL = `
CREATE TABLE projects (
  id          INTEGER PRIMARY KEY,
  name        TEXT NOT NULL UNIQUE,
  path        TEXT NOT NULL UNIQUE,             -- absolute path of the repository root
  languages   TEXT NOT NULL DEFAULT '[]',       -- JSON array, from the last index
  status      TEXT NOT NULL DEFAULT 'registered' CHECK (status IN ('registered', 'indexing', 'indexed', 'failed')),
  indexed_at  INTEGER,
  indexed_commit TEXT,
  symbols     INTEGER NOT NULL DEFAULT 0,
  last_error  TEXT,
  created_at  INTEGER NOT NULL
);

CREATE TABLE collections (
  id          INTEGER PRIMARY KEY,
  name        TEXT NOT NULL UNIQUE,
  description TEXT,
  source      TEXT,                             -- the manifest it was loaded from, or NULL when registered by hand
  created_at  INTEGER NOT NULL
);

CREATE TABLE collection_projects (
  collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
  project_id    INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  PRIMARY KEY (collection_id, project_id)
) WITHOUT ROWID;
CREATE INDEX collection_projects_project ON collection_projects(project_id);

-- Server-side scope: the session id is an opaque UUID4; the scope is read from here on every call.
CREATE TABLE sessions (
  id               TEXT PRIMARY KEY,
  agent_id         TEXT NOT NULL,
  scope_level      TEXT NOT NULL CHECK (scope_level IN ('project', 'collection', 'global')),
  projects_list    TEXT NOT NULL DEFAULT '[]',  -- JSON array of project ids
  collections_list TEXT NOT NULL DEFAULT '[]',  -- JSON array of collection ids
  valid_until      INTEGER NOT NULL,
  created_at       INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX sessions_agent ON sessions(agent_id);
CREATE INDEX sessions_valid ON sessions(valid_until);

CREATE TABLE indexing_jobs (
  id           INTEGER PRIMARY KEY,
  project_id   INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  mode         TEXT NOT NULL CHECK (mode IN ('full', 'incremental')),
  status       TEXT NOT NULL CHECK (status IN ('pending', 'in_progress', 'completed', 'failed')),
  attempts     INTEGER NOT NULL DEFAULT 0,
  enqueued_at  INTEGER NOT NULL,
  started_at   INTEGER,
  completed_at INTEGER,
  error        TEXT
);
CREATE INDEX indexing_jobs_status ON indexing_jobs(status, id);

CREATE TABLE audit_log (
  id          INTEGER PRIMARY KEY,
  agent_id    TEXT NOT NULL,
  scope_level TEXT NOT NULL,
  tool_called TEXT NOT NULL,
  outcome     TEXT NOT NULL,                    -- ok | denied | error
  result_count INTEGER,
  detail      TEXT,
  timestamp   INTEGER NOT NULL
);
CREATE INDEX audit_log_time ON audit_log(timestamp);

-- The symbols that cross-project references start or end at, identified by (project, symbol id in
-- that project's index), with enough to show them without opening the project's index.
CREATE TABLE cross_symbols (
  project_id     INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  symbol_id      INTEGER NOT NULL,
  qualified_name TEXT NOT NULL,
  kind           TEXT NOT NULL,
  file           TEXT NOT NULL,
  line           INTEGER NOT NULL,
  PRIMARY KEY (project_id, symbol_id)
) WITHOUT ROWID;

-- What a project's string literals say it provides (fires a hook, declares a route) or uses (hooks
-- into a hook, calls a URL), one row per occurrence.
CREATE TABLE string_sites (
  id          INTEGER PRIMARY KEY,
  project_id  INTEGER NOT NULL,
  symbol_id   INTEGER NOT NULL,
  role        TEXT NOT NULL CHECK (role IN ('provides', 'uses')),
  kind        TEXT NOT NULL CHECK (kind IN ('hook', 'route')),
  name        TEXT NOT NULL,                    -- hook name or normalised route ('GET /api/users/*'); * = unknown part
  call        TEXT NOT NULL,                    -- the call it was found in: do_action, add_filter, fetch, app.get…
  method      TEXT,                             -- HTTP method for routes, when known
  file        TEXT NOT NULL,
  line        INTEGER NOT NULL,
  confidence  REAL NOT NULL,
  FOREIGN KEY (project_id, symbol_id) REFERENCES cross_symbols(project_id, symbol_id) ON DELETE CASCADE
);
CREATE INDEX string_sites_name ON string_sites(kind, name);
CREATE INDEX string_sites_project ON string_sites(project_id);

CREATE TABLE cross_project_edges (
  id              INTEGER PRIMARY KEY,
  from_project_id INTEGER NOT NULL,
  from_symbol_id  INTEGER NOT NULL,
  to_project_id   INTEGER NOT NULL,
  to_symbol_id    INTEGER NOT NULL,
  type            TEXT NOT NULL CHECK (type IN ('hooks_into', 'imports', 'depends_on')),
  name            TEXT NOT NULL,                -- the hook, route or package that links them
  from_site       INTEGER NOT NULL REFERENCES string_sites(id) ON DELETE CASCADE,
  to_site         INTEGER REFERENCES string_sites(id) ON DELETE CASCADE,
  weight          REAL NOT NULL DEFAULT 1.0,    -- the confidence of the match
  FOREIGN KEY (from_project_id, from_symbol_id) REFERENCES cross_symbols(project_id, symbol_id) ON DELETE CASCADE,
  FOREIGN KEY (to_project_id, to_symbol_id) REFERENCES cross_symbols(project_id, symbol_id) ON DELETE CASCADE,
  CHECK (from_project_id != to_project_id),
  UNIQUE (from_site, to_site)
);
CREATE INDEX cross_edges_projects ON cross_project_edges(from_project_id, to_project_id);
CREATE INDEX cross_edges_to ON cross_project_edges(to_project_id);
CREATE INDEX cross_edges_name ON cross_project_edges(name);
`;

export type RegistryDb = Database.Database;

export function registryPath(home = cgHome()): string {
  return path.join(home, REGISTRY_FILE);
}

/**
 * Opens (creating when needed) the registry database. WAL lets the agent write while servers and CLI
 * commands read; the busy timeout covers two writers meeting (a `cg scope create` while the agent
 * records a job).
 */
export function openRegistry(home = cgHome()): RegistryDb {
  try {
    fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new CgError('io', `Cannot create the registry folder ${home}: ${errorMessage(err)}`,
      'Set CG_HOME to a folder you can write to.');
  }
  const file = registryPath(home);
  let db: Database.Database;
  try {
    db = new Database(file);
    // Sessions and the audit log are private to the user: nobody else on the machine reads them.
    fs.chmodSync(file, 0o600);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
  } catch (err) {
    throw new CgError('io', `Cannot open the registry at ${file}: ${errorMessage(err)}`,
      'Check the file permissions, or move the file away to start a new registry.');
  }
  migrate(db, file);
  return db;
}

function migrate(db: Database.Database, file: string): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version === REGISTRY_VERSION) return;
  if (version === 0) {
    // Two processes may open a new registry at once: the second waits for the first's write lock, then sees its tables.
    db.transaction(() => {
      if ((db.pragma('user_version', { simple: true }) as number) !== 0) return;
      db.exec(DDL);
      db.pragma(`user_version = ${REGISTRY_VERSION}`);
    }).immediate();
    return;
  }
  db.close();
  throw new CgError('io', `The registry at ${file} has version ${version}; this cg reads version ${REGISTRY_VERSION}`,
    'Use the cg that created it, or move the file away to start a new registry.');
}
