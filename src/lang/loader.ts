import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import v8 from 'node:v8';
import { Language, Parser, Query } from 'web-tree-sitter';
import { CgError, errorMessage } from '../errors.js';
import { PACKAGE_ROOT, QUERIES_DIR } from '../paths.js';
import type { LanguageSpec } from './types.js';

const require = createRequire(import.meta.url);

/** A language ready to parse: grammar loaded, all of its query files compiled into one query. */
export interface LoadedLanguage {
  spec: LanguageSpec;
  parser: Parser;
  query: Query;
}

let initDone: Promise<void> | null = null;
const cache = new Map<string, Promise<LoadedLanguage>>();
/** Whether this process has compiled WebAssembly of tree-sitter's yet (after which V8's flags no longer apply to it). */
let compiling = false;

/**
 * From now on, compiles tree-sitter and the grammars with V8's baseline WebAssembly compiler only
 * (Liftoff), for a process that parses a few files and exits (`cg update`, as a hook starts it). By
 * default V8 also recompiles the hot parser functions with its optimizing compiler on background
 * threads: on Django, 130 ms of CPU instead of 60 to load the Python grammar, compile its queries and
 * parse one file, and a one-file update's whole process 17 % less CPU without it; the optimized code
 * pays off only after some hundreds of files (859 parse 30 % slower without it), so builds and
 * long-running processes keep the default. V8 reads the flag when it compiles a module: this works only
 * before the process's first grammar load, and says whether it did.
 */
export function baselineCompileOnly(): boolean {
  if (compiling) return false;
  v8.setFlagsFromString('--liftoff-only');
  return true;
}

/**
 * One query per language, made of every `.scm` file in its folder (or folders, in the order given),
 * so a file's tree is walked once whatever the number of roles (definitions, calls, imports…) the
 * patterns play.
 */
export function querySource(spec: LanguageSpec): string {
  const dirs = typeof spec.queryDir === 'string' ? [spec.queryDir] : spec.queryDir;
  return dirs.map((d) => folderSource(spec, d)).join('\n');
}

function folderSource(spec: LanguageSpec, queryDir: string): string {
  const dir = path.join(QUERIES_DIR, queryDir);
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith('.scm')).sort();
  } catch (err) {
    throw new CgError('internal', `Query files for ${spec.displayName} are missing (${dir}): ${errorMessage(err)}`,
      'Reinstall cg; the queries/ folder ships with the package.');
  }
  return names.map((n) => `; ---- ${queryDir}/${n}\n${fs.readFileSync(path.join(dir, n), 'utf8')}`).join('\n');
}

/** The grammar's `.wasm` in the npm package that holds it (a devDependency: for tools run in a checkout). */
export function grammarPath(spec: LanguageSpec): string {
  return require.resolve(`${spec.grammarPackage ?? '@repomix/tree-sitter-wasms'}/out/${spec.grammar}`);
}

/**
 * The grammar's `.wasm` bytes: from grammars/<name>.gz, which `npm run build` fills with cg's languages
 * only and the npm package ships (gzip takes the 20 grammars from 36 MB to 3.3 MB installed; inflating
 * the largest takes ~30 ms, once per process and language); in a checkout that has not been built,
 * from the devDependency (grammarPath).
 */
function grammarBytes(spec: LanguageSpec): Uint8Array {
  const shipped = path.join(PACKAGE_ROOT, 'grammars', `${spec.grammar}.gz`);
  return fs.existsSync(shipped) ? gunzipSync(fs.readFileSync(shipped)) : fs.readFileSync(grammarPath(spec));
}

/**
 * Loads every language of `specs` before any of them parses. V8 compiles a grammar that is loaded
 * after another grammar has parsed differently: the new grammar's lexer (one function of ~200 kB of
 * WebAssembly for Python) is compiled by the optimizing compiler (TurboFan) before the load resolves,
 * 1.5 s of CPU for Python's after a shell script was parsed (node 20, measured with
 * --trace-wasm-compilation-times), against ~80 ms for the same load before any parse. A job that
 * will parse files of several languages loads them all first.
 */
export async function preloadLanguages(specs: Iterable<LanguageSpec>): Promise<void> {
  await Promise.all([...new Set(specs)].map((spec) => loadLanguage(spec).catch(() => {
    // A grammar that fails to load is reported by the file that needs it (processFile).
  })));
}

export function loadLanguage(spec: LanguageSpec): Promise<LoadedLanguage> {
  let p = cache.get(spec.id);
  if (!p) {
    p = load(spec);
    cache.set(spec.id, p);
  }
  return p;
}

async function load(spec: LanguageSpec): Promise<LoadedLanguage> {
  compiling = true;
  initDone ??= Parser.init();
  await initDone;
  const language = await Language.load(grammarBytes(spec));
  const parser = new Parser();
  parser.setLanguage(language);
  let query: Query;
  try {
    query = new Query(language, querySource(spec));
  } catch (err) {
    throw new CgError('internal', `The ${spec.displayName} queries do not compile: ${errorMessage(err)}`,
      `Fix queries/${[spec.queryDir].flat().join(', queries/')}/*.scm.`);
  }
  return { spec, parser, query };
}

const analysisCache = new Map<string, Query | null>();

/**
 * A query of the analysis part (`queries/<dir>/analysis/<name>.scm`, e.g. complexity), compiled for a
 * loaded language; null when the language has none. These files are not part of the extraction query:
 * they are read only by the analysis that asks for them.
 */
export function analysisQuery(lang: LoadedLanguage, name: string): Query | null {
  const key = `${lang.spec.id}/${name}`;
  if (analysisCache.has(key)) return analysisCache.get(key)!;
  const dirs = typeof lang.spec.queryDir === 'string' ? [lang.spec.queryDir] : lang.spec.queryDir;
  const source = dirs.map((d) => path.join(QUERIES_DIR, d, 'analysis', `${name}.scm`)).filter((f) => fs.existsSync(f))
    .map((f) => fs.readFileSync(f, 'utf8')).join('\n');
  let query: Query | null = null;
  if (source.trim()) {
    try {
      query = new Query(lang.parser.language!, source);
    } catch (err) {
      throw new CgError('internal', `The ${lang.spec.displayName} ${name} query does not compile: ${errorMessage(err)}`,
        `Fix queries/${dirs.join(', queries/')}/analysis/${name}.scm.`);
    }
  }
  analysisCache.set(key, query);
  return query;
}
