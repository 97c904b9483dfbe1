import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { Config } from '../config/config.js';
import { InstalledTree } from '../deps/installed.js';
import { languageById, languageForFile } from '../lang/registry.js';
import type { ImportResolver, RepoView } from '../lang/types.js';
import type { FileOutcome, IndexedOutcome } from '../extract/types.js';
import type { IndexWriter } from '../store/writer.js';
import { extractAll, type ExtractionPool } from './extract-pool.js';
import { processOptions } from './build.js';
import { appendAll } from '../arrays.js';

/**
 * External interfaces (spec 004, US1-AS3): the declarations of the dependencies a repository
 * imports, from what is installed inside it (src/deps/lookups.ts), indexed as external files: their
 * symbols, signatures and docs, their imports (a package's re-exports), their supertypes; not their
 * bodies (no call sites, data access or registrations), no search terms and no embeddings, so they
 * never outrank the repository's own code, but imports and calls of the repository reach them: an
 * import of `zod` leads to its declaration file, a call of an imported function to its signature.
 * Each import module that led to a package is kept in `external_modules`, which resolution reads.
 */
export const MAX_EXTERNAL_FILES = 2000;

export interface ExternalPass {
  /** Ids of the external files added. */
  added: number[];
  packages: number;
}

/**
 * Indexes the packages the given files' imports lead to (every file's when `fileIds` is null) that
 * are not indexed yet. Ids from `nextFileId` on. The caller holds the writer and its transaction.
 */
export async function indexExternal(root: string, db: Database.Database, writer: IndexWriter, config: Config, view: RepoView,
  nextFileId: number, fileIds: number[] | null, pool?: ExtractionPool): Promise<ExternalPass> {
  const rows = (fileIds === null
    ? db.prepare("SELECT f.language, f.path, i.module FROM imports i JOIN files f ON f.id = i.file_id WHERE f.external = 0 AND i.module != '' ORDER BY f.path, i.id").raw().all()
    : db.prepare(`SELECT f.language, f.path, i.module FROM imports i JOIN files f ON f.id = i.file_id
        WHERE f.external = 0 AND i.module != '' AND f.id IN (SELECT value FROM json_each(?)) ORDER BY f.path, i.id`).raw().all(JSON.stringify(fileIds))) as
    [string, string, string][];
  const known = new Set((db.prepare('SELECT language || char(0) || module FROM external_modules').pluck().all() as string[]));
  const indexed = new Map((db.prepare('SELECT path, id FROM files').raw().all() as [string, number][]));
  const externalCount = db.prepare('SELECT COUNT(*) FROM files WHERE external = 1').pluck().get() as number;
  const tree = new InstalledTree(root);
  const resolvers = new Map<string, ImportResolver>();
  const seen = new Set<string>();
  const jobs = new Map<string, { path: string; language: string; size: number; label: string }>();
  const modules: { language: string; module: string; entry: string[] }[] = [];
  const packages = new Set<string>();
  for (const [language, fromPath, module] of rows) {
    const key = `${language}\0${module}`;
    if (known.has(key) || seen.has(key)) continue;
    seen.add(key);
    const spec = languageById(language);
    if (!spec.installedPackage) continue;
    let resolver = resolvers.get(language);
    if (!resolver) resolvers.set(language, (resolver = spec.createImportResolver(view)));
    if (resolver.resolveModule({ module, names: [], line: 0 }, fromPath)?.length) continue; // the repository's own
    const pkg = spec.installedPackage(module, fromPath, tree);
    if (!pkg) continue;
    const label = `${pkg.name}${pkg.version ? `@${pkg.version}` : ''}`;
    packages.add(label);
    for (const f of pkg.files) {
      if (indexed.has(f) || jobs.has(f) || externalCount + jobs.size >= MAX_EXTERNAL_FILES) continue;
      const lang = languageForFile(f);
      const size = fileSize(root, f);
      if (lang && size !== null) jobs.set(f, { path: f, language: lang.id, size, label });
    }
    modules.push({ language, module, entry: pkg.entry });
  }
  const added: number[] = [];
  const outcomes: FileOutcome[] = [];
  await extractAll([...jobs.values()].map(({ path: p, language, size }) => ({ path: p, language, size })), processOptions(root, config),
    config.workers, (batch) => appendAll(outcomes, batch), pool);
  outcomes.sort((a, b) => (a.path < b.path ? -1 : 1));
  const insert = db.prepare('INSERT INTO external_modules (language, module, file_id) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (const o of outcomes) {
      if (o.status !== 'indexed') continue;
      const id = nextFileId++;
      writer.addFile(declarationsOnly(o), id, undefined, undefined, jobs.get(o.path)!.label);
      indexed.set(o.path, id);
      added.push(id);
    }
    for (const m of modules) for (const p of m.entry) if (indexed.has(p)) insert.run(m.language, m.module, indexed.get(p)!);
  })();
  return { added, packages: packages.size };
}

/** A dependency's file as an interface: what it declares and imports, not what its bodies do. */
function declarationsOnly(o: IndexedOutcome): IndexedOutcome {
  return { ...o, extract: { ...o.extract, calls: [], accesses: [], registrations: [], fires: [], tables: [], terms: undefined } };
}

function fileSize(root: string, rel: string): number | null {
  try {
    return fs.statSync(path.join(root, rel)).size;
  } catch {
    return null;
  }
}
