import type Database from 'better-sqlite3';

/**
 * Bump on any change that an older reader or writer would misread. An index with another version is
 * rebuilt by `cg index`, with the old database kept as a backup (PRD §12).
 */
export const SCHEMA_VERSION = 16;

const DDL = `
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE files (
  id          INTEGER PRIMARY KEY,
  path        TEXT NOT NULL UNIQUE,
  language    TEXT NOT NULL,
  hash        TEXT NOT NULL,
  size        INTEGER NOT NULL,
  loc         INTEGER NOT NULL,
  partial     INTEGER NOT NULL DEFAULT 0,
  error_count INTEGER NOT NULL DEFAULT 0,
  is_test     INTEGER NOT NULL DEFAULT 0,
  warnings    TEXT,
  tokens      INTEGER NOT NULL DEFAULT 0,  -- search terms in path + text (BM25 document length)
  pagerank    REAL NOT NULL DEFAULT 0,
  last_commit INTEGER,                     -- unix time of the last commit that touched the file (NULL: none seen)
  commits     INTEGER NOT NULL DEFAULT 0,  -- commits that touched it, within the history read (src/repo/history.ts)
  external    INTEGER NOT NULL DEFAULT 0,  -- 1: a dependency's declaration file (src/indexer/external.ts), schema 10
  package     TEXT                         -- for an external file: the package and version, zod@3.22.4
);

-- Import modules that lead to an installed dependency's entry files (schema 10; src/indexer/external.ts).
CREATE TABLE external_modules (
  language TEXT NOT NULL,            -- the importing files' language
  module   TEXT NOT NULL,            -- the module as written: zod, requests.adapters, github.com/x/y
  file_id  INTEGER NOT NULL
);

-- Paths found but not indexed, with the reason; directories count once.
CREATE TABLE skipped (
  path     TEXT PRIMARY KEY,
  reason   TEXT NOT NULL,
  detail   TEXT,
  is_dir   INTEGER NOT NULL DEFAULT 0,
  language TEXT,
  hash     TEXT                  -- for files skipped by content, so an update can tell they did not change
) WITHOUT ROWID;

CREATE TABLE secret_findings (
  path        TEXT NOT NULL,
  rule        TEXT NOT NULL,
  line        INTEGER NOT NULL,
  fingerprint TEXT NOT NULL
);

CREATE TABLE symbols (
  id             INTEGER PRIMARY KEY,
  file_id        INTEGER NOT NULL,
  parent_id      INTEGER,
  name           TEXT NOT NULL,
  qualified_name TEXT NOT NULL,
  kind           TEXT NOT NULL,
  start_line     INTEGER NOT NULL,
  end_line       INTEGER NOT NULL,
  signature      TEXT NOT NULL,
  doc            TEXT,
  params         TEXT NOT NULL,   -- JSON array of strings
  visibility     TEXT NOT NULL,
  is_async       INTEGER NOT NULL,
  is_static      INTEGER NOT NULL,
  mutates        TEXT NOT NULL,   -- JSON array of strings
  annotations    TEXT NOT NULL,   -- JSON array of strings
  exported       INTEGER NOT NULL,
  is_test        INTEGER NOT NULL,
  in_error       INTEGER NOT NULL,
  scoped         INTEGER NOT NULL DEFAULT 0,  -- 1: declared in a callback or block, seen only there (schema 13)
  tokens         INTEGER NOT NULL DEFAULT 0,  -- search terms of a function or method unit
  pagerank       REAL NOT NULL DEFAULT 0
);

-- Import statements as written; their resolution is in edges (kind 'imports').
CREATE TABLE imports (
  id       INTEGER PRIMARY KEY,
  file_id  INTEGER NOT NULL,
  module   TEXT NOT NULL,
  names    TEXT NOT NULL,         -- JSON [{name, alias?}]
  alias    TEXT,
  wildcard INTEGER NOT NULL,
  reexport INTEGER NOT NULL,
  line     INTEGER NOT NULL,
  in_error INTEGER NOT NULL,
  resolution TEXT                  -- internal | external | unresolved (NULL for local export aliases)
);

-- Unresolved references as written (call sites, supertypes, registrations, fired names), kept so
-- edges can be re-resolved without re-parsing when other files change.
CREATE TABLE refs (
  id            INTEGER PRIMARY KEY,
  file_id       INTEGER NOT NULL,
  symbol_id     INTEGER NOT NULL,  -- the caller, the subtype for extends/implements, the registering symbol or endpoint
  kind          TEXT NOT NULL,     -- call | extends | implements | register | fire | read | write | table
  name          TEXT NOT NULL,     -- register: the callback's name ('' for an inline function); read, write: field, global, table or model; table: the table a class maps
  receiver      TEXT,
  receiver_type TEXT,
  line          INTEGER NOT NULL,
  in_error      INTEGER NOT NULL,
  resolution    TEXT,              -- calls and registrations: the tier that resolved it, external, or unresolved
  detail        TEXT               -- register, fire: JSON {target: 'kind:name', handler?, literal?}; read, write: {what} (schema 10);
                                   -- call: {local: line} when a scope around the call binds the name (0: a parameter or variable),
                                   -- {head: type} the type of a receiver chain's first variable (Go), schema 13
);

-- Postings for retrieval (src/retrieve): whole files and function/method units, as varint runs
-- (src/store/postings.ts, schema 11): per term the documents holding it, per document its terms.
CREATE TABLE terms (id INTEGER PRIMARY KEY, term TEXT NOT NULL UNIQUE);
CREATE TABLE file_postings (term_id INTEGER PRIMARY KEY, docs BLOB NOT NULL);
CREATE TABLE unit_postings (term_id INTEGER PRIMARY KEY, docs BLOB NOT NULL);
CREATE TABLE file_terms (file_id INTEGER PRIMARY KEY, terms BLOB NOT NULL);
CREATE TABLE unit_terms (symbol_id INTEGER PRIMARY KEY, terms BLOB NOT NULL);

-- The repository's newest non-merge commits (src/retrieve/history.ts, schema 14; deflated rows since 16),
-- for the learned ranker's "similar past commits" evidence. A row holds consecutive commits, newest
-- first: per commit a line of its message's search terms (space-separated, repeats kept; credentials
-- blanked first), a tab, and the files it changed (tab-separated, relative to the root), the lines
-- deflated together (raw DEFLATE). Rows are read newest slot first. Messages themselves are not kept.
CREATE TABLE past_commits (
  slot    INTEGER PRIMARY KEY,       -- higher: newer commits
  commits INTEGER NOT NULL,
  data    BLOB NOT NULL
);

-- Full-text search over symbols: split identifiers of names, qualified names, signatures, docs and paths.
-- Rows are removed with the 'delete' command and their original text (IndexWriter.deleteFts): with
-- contentless_delete=1 a DELETE left BM25's document count and lengths counting the removed rows (schema 8).
CREATE VIRTUAL TABLE symbol_fts USING fts5(name, qname, signature, doc, path, content='',
  tokenize='unicode61 remove_diacritics 0');

-- Vectors by (model, sha256 of the embedded text): an unchanged text is never embedded twice (src/vectors/cache.ts).
CREATE TABLE IF NOT EXISTS embeddings (
  model     TEXT NOT NULL,      -- modelKey: id, dtype, pooling, normalisation (+ the built-in model's build digest)
  text_hash TEXT NOT NULL,      -- textHash(embedText(symbol)): 128 bits of its sha256, base64url (schema 11)
  dims      INTEGER NOT NULL,
  vector    BLOB NOT NULL,      -- float32 little-endian, dims * 4 bytes
  PRIMARY KEY (model, text_hash)
) WITHOUT ROWID;

-- The text each symbol was last embedded from; joined with embeddings to rebuild the vector index.
CREATE TABLE IF NOT EXISTS symbol_embeddings (
  symbol_id INTEGER PRIMARY KEY,
  text_hash TEXT NOT NULL
);

-- The graph. dst_id is NULL for imports of modules outside the repository (target = module name).
CREATE TABLE edges (
  src_id     INTEGER NOT NULL,
  dst_id     INTEGER,
  kind       TEXT NOT NULL,        -- contains | imports | calls | extends | implements | overrides | tests | registers | fires | reads | writes
  confidence REAL NOT NULL,
  line       INTEGER,
  file_id    INTEGER NOT NULL,     -- the file the edge is written in
  target     TEXT                  -- imports: the module outside the repository; registers, fires: 'kind:name' (action:init, route:GET /users);
                                   -- reads, writes: the field of the type dst_id (email), or 'table:users' (dst_id the model class, or NULL)
);
`;

const INDEXES = `
CREATE INDEX IF NOT EXISTS symbols_name ON symbols(name COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS symbols_qname ON symbols(qualified_name COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS symbols_file ON symbols(file_id);
CREATE INDEX IF NOT EXISTS imports_file ON imports(file_id);
CREATE INDEX IF NOT EXISTS refs_file ON refs(file_id);
CREATE INDEX IF NOT EXISTS external_modules_file ON external_modules(file_id);
CREATE INDEX IF NOT EXISTS refs_table_access ON refs(name) WHERE detail = '{"what":"table"}';
CREATE INDEX IF NOT EXISTS edges_src ON edges(src_id, kind);
CREATE INDEX IF NOT EXISTS edges_dst ON edges(dst_id, kind);
CREATE INDEX IF NOT EXISTS edges_file ON edges(file_id);
CREATE INDEX IF NOT EXISTS edges_target ON edges(target) WHERE target IS NOT NULL;
`;

/** The secondary indexes' names (INDEXES): a snapshot leaves them out and a restore builds them (src/snapshot/canonical.ts). */
export const SECONDARY_INDEXES: readonly string[] = [...INDEXES.matchAll(/CREATE INDEX IF NOT EXISTS (\w+)/g)].map((m) => m[1]);

/** The embedding tables alone, for a database created before them or outside an index (tests, tools). */
export const EMBEDDING_DDL = DDL.slice(DDL.indexOf('-- Vectors by'), DDL.indexOf('-- The graph.'));

/** Tables first; indexes after the bulk load of a full build, which is faster than maintaining them. */
export function createTables(db: Database.Database): void {
  db.exec(DDL);
}

export function createIndexes(db: Database.Database): void {
  db.exec(INDEXES);
}
