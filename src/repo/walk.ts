import fs from 'node:fs';
import path from 'node:path';
import { IgnoreRules } from '../config/ignore.js';
import { CG_DIR } from '../paths.js';
import { throughLink } from './contained.js';
import { BuildOutputRule } from './vendored.js';

/** Why a path found on disk was not handed to the parser. */
export type WalkSkipReason =
  | 'ignored'          // .gitignore, .cgignore, .git/info/exclude, core.excludesFile or config.exclude
  | 'vendored'         // a dependency or tool directory (config.vendorDirs)
  | 'build_output'     // build/, dist/, out/, target/ that the repository shows to be generated (src/repo/vendored.ts)
  | 'symlink'          // links are not followed: no loops, no files outside the repository
  | 'not_regular_file' // FIFOs, sockets, devices: reading them could block or mean nothing
  | 'too_large'
  | 'unreadable';

export interface WalkEntry {
  path: string; // repo-relative POSIX
  size: number;
  language: string;
}

export interface WalkSkip {
  path: string;
  reason: WalkSkipReason;
  isDir: boolean;
  detail?: string;
}

export interface WalkResult {
  files: WalkEntry[];
  skipped: WalkSkip[];
  /** Regular files whose extension no language claims; counted, not listed. */
  unsupported: number;
}

export interface WalkOptions {
  maxFileBytes: number;
  vendorDirs: string[];
  exclude: string[];
  /** The language of a file name, or null when no registered language handles it. */
  languageOf: (fileName: string) => string | null;
  /** A language's own size limit, when it differs from maxFileBytes (PDFs). */
  maxBytesOf?: (language: string) => number;
}

/** Files whose change alters which files are indexed at all (an update rescans every file against them). */
export const RULE_FILES = /(^|\/)(\.gitignore|\.cgignore)$/;

/** Lists the files to index under `root`, deterministic (sorted) and without following links. */
export function walkRepo(root: string, opts: WalkOptions): WalkResult {
  const result: WalkResult = { files: [], skipped: [], unsupported: 0 };
  const vendor = new Set(opts.vendorDirs);
  const buildOutput = new BuildOutputRule(root, opts.languageOf);
  const visit = (dirRel: string, rules: IgnoreRules) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(root, dirRel), { withFileTypes: true });
    } catch (err) {
      result.skipped.push({ path: dirRel || '.', reason: 'unreadable', isDir: true, detail: (err as Error).message });
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const ent of entries) {
      const rel = dirRel ? `${dirRel}/${ent.name}` : ent.name;
      if (ent.isDirectory()) {
        if (ent.name === '.git' || ent.name === CG_DIR) continue;
        if (rules.ignores(rel, true)) result.skipped.push({ path: rel, reason: 'ignored', isDir: true });
        else if (vendor.has(ent.name)) result.skipped.push({ path: rel, reason: 'vendored', isDir: true, detail: 'a dependency or tool folder (vendorDirs)' });
        else {
          const generated = buildOutput.reason(rel);
          if (generated) result.skipped.push({ path: rel, reason: 'build_output', isDir: true, detail: generated });
          else visit(rel, rules.enter(root, rel));
        }
        continue;
      }
      // Only paths a language claims are counted; the rest are "unsupported" in bulk.
      const language = opts.languageOf(ent.name);
      if (ent.isSymbolicLink()) {
        if (language && !rules.ignores(rel, false)) result.skipped.push({ path: rel, reason: 'symlink', isDir: false });
        continue;
      }
      if (!ent.isFile()) {
        if (language && !rules.ignores(rel, false)) result.skipped.push({ path: rel, reason: 'not_regular_file', isDir: false });
        continue;
      }
      if (!language) {
        // Ignored files are not counted: snapshot artifacts in a configured, ignored folder must not change the index.
        if (!rules.ignores(rel, false)) result.unsupported++;
        continue;
      }
      if (rules.ignores(rel, false)) {
        result.skipped.push({ path: rel, reason: 'ignored', isDir: false });
        continue;
      }
      let size: number;
      try {
        size = fs.statSync(path.join(root, rel)).size;
      } catch (err) {
        result.skipped.push({ path: rel, reason: 'unreadable', isDir: false, detail: (err as Error).message });
        continue;
      }
      if (size > (opts.maxBytesOf?.(language) ?? opts.maxFileBytes)) {
        result.skipped.push({ path: rel, reason: 'too_large', isDir: false, detail: `${size} bytes` });
        continue;
      }
      result.files.push({ path: rel, size, language });
    }
  };
  visit('', IgnoreRules.forRoot(root, opts.exclude));
  return result;
}

export type PathClass =
  | { kind: 'file'; language: string; size: number }
  /** Not indexed, and recorded as a skipped path with this reason (as the walk would). */
  | { kind: 'skip'; reason: WalkSkipReason; detail?: string }
  /** Not indexed and not recorded one by one: gone, in an ignored or vendored directory, or no language. */
  | { kind: 'excluded' };

/**
 * What the walk would decide for one path, without walking the tree: used by the incremental
 * applier to check changed paths against the same ignore, vendor, link and size rules.
 */
export function classifyPath(root: string, rel: string, opts: WalkOptions): PathClass {
  return pathClassifier(root, opts)(rel);
}

/**
 * classifyPath for many paths at one moment: each directory's ignore rules are read and compiled
 * once, not once per path (an update's candidates are every dirty path, often dozens in a few
 * directories, and compiling the root .gitignore per path was most of a warm update's walk time).
 */
export function pathClassifier(root: string, opts: WalkOptions): (rel: string) => PathClass {
  const memo = new Map<string, IgnoreRules | null>();
  const linked = new Map<string, boolean>();
  const buildOutput = new BuildOutputRule(root, opts.languageOf);
  return (rel) => {
    const parts = rel.split('/');
    if (parts.some((p) => p === '.git' || p === CG_DIR || p === '..' || p === '' || p === '.')) return { kind: 'excluded' };
    const rules = rulesInside(root, parts.slice(0, -1), opts, buildOutput, memo);
    if (!rules) return { kind: 'excluded' };
    // A directory reached through a link is not entered by the walk: its files are not the repository's.
    const dir = parts.slice(0, -1).join('/');
    if (!linked.has(dir)) linked.set(dir, throughLink(root, dir));
    if (linked.get(dir)) return { kind: 'excluded' };
    const language = opts.languageOf(parts[parts.length - 1]);
    let st: fs.Stats;
    try {
      st = fs.lstatSync(path.join(root, rel));
    } catch {
      return { kind: 'excluded' };
    }
    if (st.isDirectory() || !language) return { kind: 'excluded' };
    if (rules.ignores(rel, false)) return { kind: 'skip', reason: 'ignored' };
    if (st.isSymbolicLink()) return { kind: 'skip', reason: 'symlink' };
    if (!st.isFile()) return { kind: 'skip', reason: 'not_regular_file' };
    if (st.size > (opts.maxBytesOf?.(language) ?? opts.maxFileBytes)) return { kind: 'skip', reason: 'too_large', detail: `${st.size} bytes` };
    return { kind: 'file', language, size: st.size };
  };
}

/**
 * Whether the walk leaves a directory (repo-relative, POSIX) out: ignored, vendored, build output,
 * `.git` or `.codegraph`. Pass one `buildOutput` rule to many calls to read git's file list once, and
 * one `memo` to calls made at one moment to read and compile each directory's ignore files once (without
 * it, each call reads the root's rules and every parent's ignore files again).
 */
export function isExcludedDir(root: string, rel: string, opts: WalkOptions,
  buildOutput = new BuildOutputRule(root, opts.languageOf), memo: Map<string, IgnoreRules | null> = new Map()): boolean {
  const parts = rel.split('/');
  if (parts.some((p) => p === '.git' || p === CG_DIR || p === '..')) return true;
  return rulesInside(root, parts, opts, buildOutput, memo) === null;
}

/** The ignore rules in effect inside a directory, or null when it or a parent is ignored, vendored or build output. */
function rulesInside(root: string, dirParts: string[], opts: WalkOptions, buildOutput: BuildOutputRule,
  memo: Map<string, IgnoreRules | null> = new Map()): IgnoreRules | null {
  const dir = dirParts.join('/');
  const known = memo.get(dir);
  if (known !== undefined) return known;
  let rules: IgnoreRules | null;
  if (!dirParts.length) rules = IgnoreRules.forRoot(root, opts.exclude);
  else {
    const parent = rulesInside(root, dirParts.slice(0, -1), opts, buildOutput, memo);
    const ignored = !parent || parent.ignores(dir, true) || opts.vendorDirs.includes(dirParts[dirParts.length - 1])
      || buildOutput.reason(dir) !== null;
    rules = ignored ? null : parent.enter(root, dir);
  }
  memo.set(dir, rules);
  return rules;
}
