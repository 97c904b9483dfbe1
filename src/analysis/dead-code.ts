import type Database from 'better-sqlite3';
import { languageById } from '../lang/registry.js';
import { definitions, indexedFiles, type DefinitionRow } from '../store/analysis-data.js';
import { trackedFiles } from '../repo/history-sets.js';
import { readContained } from '../repo/contained.js';
import type { SymbolRef } from '../graph/blast.js';

/**
 * Dead code: definitions nothing in the index refers to (no edge of any kind but `contains` from
 * another symbol: calls, imports, inheritance, tests, and whatever kinds the resolver adds), that are
 * not exported (nor public members of an exported type: an API others may call, nor public methods,
 * which interfaces and duck typing reach without an edge), not an entry point
 * (main, constructors, dunder methods, overrides of runtime methods), not a test, and not adorned with a
 * decorator or annotation (frameworks call those). Unresolved calls are the index's blind spot, so each
 * report says how often its name is written anywhere in the repository's text files outside its own
 * definitions: `high` confidence means nowhere (nothing can be calling it by that name), `medium`
 * means the name appears (a call cg could not resolve, a string, a template), or a string builds names
 * that start like it (`getattr(self, '_get_current_%s' % period)`); only `high` is reported unless asked.
 */
export interface DeadSymbol extends SymbolRef {
  visibility: string;
  confidence: 'high' | 'medium';
  /** Times the name is written in the repository's text files, beyond its definitions. */
  mentions: number;
  reason: string;
}

export interface DeadCodeReport {
  dead: DeadSymbol[];
  /** Definitions looked at (tests, modules left out). */
  definitions: number;
  /** Reports per confidence, before the filter. */
  byConfidence: { high: number; medium: number };
  /** Text files read to count name mentions. */
  filesScanned: number;
}

const ENTRY_NAMES = new Set(['main', '__main__', 'init', 'constructor', 'new', 'setup', 'teardown', 'run', 'handle', 'invoke', 'call', 'apply',
  'execute', 'render', 'default',
  // Java serialization calls these by name.
  'serialversionuid', 'readresolve', 'writereplace', 'readobject', 'writeobject', 'readobjectnodata']);
/** Annotations that change how a function is called, not whether something calls it. */
const INERT_ANNOTATIONS = new Set(['staticmethod', 'classmethod', 'static', 'inline', 'override', 'final', 'deprecated', 'abstractmethod']);
const MAX_TEXT_BYTES = 2_000_000;

/**
 * `name: value`, `'name': value` or `name() {…}` outside a class: a property of an object literal, called
 * by whoever receives the object (a plugin's hooks, a callback table).
 */
function isObjectProperty(d: DefinitionRow, lines: (file: string) => string[]): boolean {
  const line = lines(d.file)[d.startLine - 1] ?? '';
  const name = d.name.replace(/[$]/g, '\\$');
  if (new RegExp(`(^|[{,])\\s*['"]?${name}['"]?\\s*:`).test(line)) return true;
  return d.kind === 'function' && new RegExp(`(^|[{,])\\s*(async\\s+|get\\s+|set\\s+|\\*\\s*)?${name}\\s*\\(`).test(line);
}

/** Test data and samples: fixtures are inputs, examples are code for people to copy; neither is dead. */
const SAMPLE_DIRS = /(^|\/)(__)?(test)?fixtures?(__)?\/|(^|\/)testdata\/|(^|\/)examples?\//i;

export function deadCode(db: Database.Database, root: string, opts: { includeMedium?: boolean; includeExported?: boolean; fileGlob?: (p: string) => boolean } = {}): DeadCodeReport {
  const defs = definitions(db).filter((d) => !d.isTest && !d.fileIsTest && !SAMPLE_DIRS.test(d.file));
  const byId = new Map(defs.map((d) => [d.id, d]));
  const candidates = defs.filter((d) => Object.keys(d.incoming).length === 0 && !isApi(d, byId, !!opts.includeExported) && !isEntryPoint(d, byId)
    && (!opts.fileGlob || opts.fileGlob(d.file)));
  const definedCount = new Map<string, number>();
  for (const d of definitions(db)) definedCount.set(d.name, (definedCount.get(d.name) ?? 0) + 1);
  const { counts, prefixes, files } = mentionCounts(root, new Set(candidates.map((c) => c.name)), db);
  const builtFrom = (name: string) => [...prefixes].filter((p) => name.startsWith(p) && name.length > p.length).sort((a, b) => b.length - a.length)[0];
  const fileLines = new Map<string, string[]>();
  const lines = (file: string) => {
    if (!fileLines.has(file)) {
      const read = readContained(root, file, MAX_TEXT_BYTES);
      fileLines.set(file, read.ok ? read.data.toString('utf8').split('\n') : []);
    }
    return fileLines.get(file)!;
  };
  const reported = new Set<number>();
  const dead: DeadSymbol[] = [];
  for (const d of candidates) {
    // A member of a type already reported dead goes with it.
    if (d.parentId !== null && reported.has(d.parentId)) {
      reported.add(d.id);
      continue;
    }
    if (isObjectProperty(d, lines)) continue;
    const mentions = Math.max(0, (counts.get(d.name) ?? 0) - (definedCount.get(d.name) ?? 1));
    const prefix = builtFrom(d.name);
    const confidence = mentions === 0 && !prefix ? 'high' : 'medium';
    reported.add(d.id);
    dead.push({ id: d.id, symbol: d.qualifiedName, kind: d.kind, file: d.file, startLine: d.startLine, endLine: d.endLine, visibility: d.visibility,
      confidence, mentions,
      reason: confidence === 'high' ? 'no reference in the index, and its name is written nowhere else in the repository'
        : mentions ? `no reference in the index, but its name is written ${mentions} more time${mentions === 1 ? '' : 's'} in the repository (a call cg could not resolve, a string or a template?)`
          : `no reference in the index, but a string builds names from "${prefix}" (getattr, dynamic dispatch)` });
  }
  const byConfidence = { high: dead.filter((d) => d.confidence === 'high').length, medium: dead.filter((d) => d.confidence === 'medium').length };
  return { dead: opts.includeMedium ? dead : dead.filter((d) => d.confidence === 'high'), definitions: defs.length, byConfidence, filesScanned: files };
}

/** Exported, or a public member of an exported type: callers may live outside the repository. */
function isApi(d: DefinitionRow, byId: Map<number, DefinitionRow>, includeExported: boolean): boolean {
  if (includeExported) return false;
  if (d.exported) return true;
  if (d.parentId === null || (d.visibility !== 'public' && d.visibility !== 'protected')) return false;
  const parent = byId.get(d.parentId);
  if (!parent || parent.kind === 'function' || parent.kind === 'method') return false;
  // A public method can be reached through an interface or a base type the index does not link it to
  // (Go's implicit interfaces: sort.Interface's Swap; duck typing). Other public or protected members
  // (nested types, constants) are API when their type is.
  return d.kind === 'method' ? d.visibility === 'public' || parent.exported || isApi(parent, byId, false) : parent.exported || isApi(parent, byId, false);
}

function isEntryPoint(d: DefinitionRow, byId: Map<number, DefinitionRow>): boolean {
  const lower = d.name.toLowerCase();
  const parent = d.parentId === null ? null : byId.get(d.parentId);
  // A constructor (named as its class) is reached through the class; an enum's values are its data;
  // a protected method of a type with supertypes may override one of theirs.
  if (parent && (d.name === parent.name || parent.kind === 'enum' || (d.visibility === 'protected' && parent.hasSupertypes))) return true;
  // Dunder and sunder names are protocol hooks (__str__, Enum's _generate_next_value_); visit_/depart_/do_
  // methods are dispatched by name by standard visitors (ast.NodeVisitor, docutils, cmd.Cmd).
  if (ENTRY_NAMES.has(lower) || /^__\w+__$/.test(d.name) || /^_[a-z]\w*[a-z]_$/.test(d.name) || /^(visit|depart|do)_\w/.test(d.name)) return true;
  if (d.annotations.some((a) => !INERT_ANNOTATIONS.has(a.replace(/^@/, '').split(/[.(]/)[0].toLowerCase()))) return true;
  // A method named like a method of the runtime's own types (toString, equals, __iter__…) overrides it.
  const builtin = languageById(d.language).builtinMethods;
  return d.kind === 'method' && !!builtin?.has(d.name);
}

/**
 * How often each name is written as a word in the repository's text files (what git tracks, or the
 * indexed files without git): templates, configuration and docs included, binary and huge files not.
 */
function mentionCounts(root: string, names: Set<string>, db: Database.Database): { counts: Map<string, number>; prefixes: Set<string>; files: number } {
  const counts = new Map<string, number>();
  const prefixes = new Set<string>();
  if (!names.size) return { counts, prefixes, files: 0 };
  const list = trackedFiles(root) ?? indexedFiles(db).map((f) => f.path);
  let files = 0;
  for (const rel of list) {
    // Contained: a tracked link to a file outside the repository is not read.
    const read = readContained(root, rel, MAX_TEXT_BYTES);
    if (!read.ok) continue;
    const buf = read.data;
    if (buf.subarray(0, 8000).includes(0)) continue;
    files++;
    const text = buf.toString('utf8');
    for (const m of text.matchAll(/[A-Za-z_$][\w$]*/g)) {
      if (names.has(m[0])) counts.set(m[0], (counts.get(m[0]) ?? 0) + 1);
    }
    // Names built at run time: 'get_%s' % x, f"clean_{field}", `on${Event}`, 'visit_' + kind.
    for (const m of text.matchAll(/["'`]([A-Za-z_$][\w$]{2,})(?:%[sdr(]|\{|\$\{|["'`]\s*\+)/g)) prefixes.add(m[1]);
  }
  return { counts, prefixes, files };
}
