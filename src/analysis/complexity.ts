import type Database from 'better-sqlite3';
import type { Node } from 'web-tree-sitter';
import { analysisQuery, loadLanguage } from '../lang/loader.js';
import { languageById } from '../lang/registry.js';
import { functionsOfFile, indexedFiles } from '../store/analysis-data.js';
import { fileMatcher } from '../store/glob.js';
import { readContained } from '../repo/contained.js';

/** Indexed files are within the configured limit (1 MB by default); this only bounds a file grown since. */
const MAX_FILE_BYTES = 16_000_000;

/**
 * Per-function complexity, computed on demand from the tree-sitter tree of each file (no index
 * change): cyclomatic complexity (McCabe: 1 + decisions) and cognitive complexity (SonarSource's:
 * each break in the linear flow costs 1 plus its nesting depth; `else`/`else if` cost 1; a run of the
 * same boolean operator costs 1). Which nodes are decisions is each language's query
 * `queries/<lang>/analysis/complexity.scm`; a language without one is listed as not measured.
 */
export interface FunctionComplexity {
  symbol: string;
  kind: string;
  file: string;
  startLine: number;
  endLine: number;
  cyclomatic: number;
  cognitive: number;
  maxNesting: number;
}

export interface ComplexityReport {
  functions: FunctionComplexity[];
  /** Functions measured before the limit and threshold. */
  measured: number;
  files: number;
  /** Languages in scope without a complexity query, with their file counts. */
  notMeasured: Record<string, number>;
  /** Files that could not be read (deleted since indexing). */
  unreadable: string[];
}

type Role = 'branch' | 'elif' | 'else' | 'loop' | 'switch' | 'case' | 'catch' | 'logical' | 'nest' | 'none';
const NESTS: ReadonlySet<Role> = new Set(['branch', 'loop', 'switch', 'catch', 'nest']);
const LOGICAL_OPS = new Set(['&&', '||', '??', 'and', 'or']);

export async function complexity(db: Database.Database, root: string, opts: { fileGlob?: string; files?: ReadonlySet<string>; min?: number; limit?: number } = {}):
  Promise<ComplexityReport> {
  const glob = opts.fileGlob ? fileMatcher(opts.fileGlob) : () => true;
  const match = (p: string) => glob(p) && (!opts.files || opts.files.has(p));
  const out: FunctionComplexity[] = [];
  const notMeasured: Record<string, number> = {};
  const unreadable: string[] = [];
  let files = 0;
  for (const f of indexedFiles(db).filter((x) => match(x.path))) {
    const spec = languageById(f.language);
    const lang = await loadLanguage(spec);
    const query = analysisQuery(lang, 'complexity');
    if (!query) {
      notMeasured[f.language] = (notMeasured[f.language] ?? 0) + 1;
      continue;
    }
    const fns = functionsOfFile(db, f.id);
    if (!fns.length) continue;
    // Contained, as every read of a repository's file: a file swapped for a link since indexing is not followed.
    const read = readContained(root, f.path, MAX_FILE_BYTES);
    if (!read.ok) {
      unreadable.push(f.path);
      continue;
    }
    const text = read.data.toString('utf8');
    files++;
    const tree = lang.parser.parse(spec.preprocess ? spec.preprocess(text) : text);
    if (!tree) continue;
    try {
      const roles = new Map<number, { node: Node; role: Role }>();
      for (const c of query.captures(tree.rootNode)) roles.set(c.node.id, { node: c.node, role: c.name as Role });
      out.push(...measure(fns, f.path, roles));
    } finally {
      tree.delete();
    }
  }
  out.sort((a, b) => b.cognitive - a.cognitive || b.cyclomatic - a.cyclomatic || a.file.localeCompare(b.file) || a.startLine - b.startLine);
  const kept = out.filter((x) => x.cyclomatic >= (opts.min ?? 1));
  return { functions: opts.limit ? kept.slice(0, opts.limit) : kept, measured: out.length, files, notMeasured, unreadable };
}

function measure(fns: { qualifiedName: string; kind: string; startLine: number; endLine: number }[], file: string,
  roles: Map<number, { node: Node; role: Role }>): FunctionComplexity[] {
  const stats = fns.map((fn) => ({ fn, cyclomatic: 1, cognitive: 0, maxNesting: 0 }));
  // The innermost function around a line: nested functions are measured on their own.
  const owner = (row: number) => {
    let best: (typeof stats)[number] | null = null;
    for (const s of stats) {
      if (s.fn.startLine <= row && row <= s.fn.endLine && (!best || s.fn.endLine - s.fn.startLine < best.fn.endLine - best.fn.startLine)) best = s;
    }
    return best;
  };
  for (const { node, role: captured } of roles.values()) {
    const s = owner(node.startPosition.row + 1);
    if (!s) continue;
    const inFn = (n: Node) => n.startPosition.row + 1 >= s.fn.startLine && n.endPosition.row + 1 <= s.fn.endLine
      // the function's own node (a lambda bound to a name) is not nesting inside it
      && !(n.startPosition.row + 1 === s.fn.startLine && n.endPosition.row + 1 === s.fn.endLine);
    const role = roleOf(node, captured, roles);
    let nesting = 0;
    for (let p = node.parent; p && inFn(p); p = p.parent) {
      const r = roles.get(p.id);
      if (r && NESTS.has(roleOf(p, r.role, roles))) nesting++;
    }
    s.maxNesting = Math.max(s.maxNesting, nesting + (NESTS.has(role) && role !== 'nest' ? 1 : 0));
    switch (role) {
      case 'branch': case 'loop': case 'catch':
        s.cyclomatic++;
        s.cognitive += 1 + nesting;
        break;
      case 'switch':
        s.cognitive += 1 + nesting;
        break;
      case 'elif':
        s.cyclomatic++;
        s.cognitive++;
        break;
      case 'else':
        s.cognitive++;
        break;
      case 'case':
        if (!/^(default|else|_)\b/.test(node.text.trim())) s.cyclomatic++;
        break;
      case 'logical': {
        s.cyclomatic++;
        const parent = node.parent ? roles.get(node.parent.id) : undefined;
        if (!parent || parent.role !== 'logical' || operator(node.parent!) !== operator(node)) s.cognitive++;
        break;
      }
      case 'nest': case 'none':
        break;
    }
  }
  return stats.map((s) => ({ symbol: s.fn.qualifiedName, kind: s.fn.kind, file, startLine: s.fn.startLine, endLine: s.fn.endLine,
    cyclomatic: s.cyclomatic, cognitive: s.cognitive, maxNesting: s.maxNesting }));
}

/**
 * An `if` that is the `else` of another (`else if`, Go/Java/Swift's if inside an if, Rust/JS's if
 * inside an else clause) is one more branch of the same chain: it costs 1 and adds no nesting; the
 * else clause holding it costs nothing of its own.
 */
function roleOf(node: Node, captured: Role, roles: Map<number, { node: Node; role: Role }>): Role {
  if (captured === 'branch' && node.parent) {
    const p = roles.get(node.parent.id);
    // Directly inside an if of the same type (not as its `consequence`): Go and Java's `alternative`, Swift's else-if.
    if (p && (p.role === 'else' || (p.role === 'branch' && p.node.type === node.type && node.parent.childForFieldName('consequence')?.id !== node.id))) return 'elif';
  }
  if (captured === 'else' && node.namedChildren.some((c) => c && roles.get(c.id)?.role === 'branch')) return 'none';
  return captured;
}

function operator(node: Node): string | null {
  for (const c of node.children) if (c && !c.isNamed && LOGICAL_OPS.has(c.type)) return c.type;
  return node.type;
}
