import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { infoExcludePath } from '../repo/head.js';

/** Files whose rules apply to their own directory and everything below it, as git does. */
const IGNORE_FILES = ['.gitignore', '.cgignore'];

/**
 * A stack of ignore levels, one per directory that has rules. The deepest level with a rule that
 * matches decides, so a nested `!pattern` can re-include what a parent ignored (git semantics).
 */
export class IgnoreRules {
  private constructor(
    private readonly parent: IgnoreRules | null,
    private readonly dir: string,
    private readonly rules: Ignore | null,
  ) {}

  /**
   * Root rules, lowest precedence first as git applies them: the user's global excludes file
   * (core.excludesFile), `.git/info/exclude`, the configured excludes, then the root ignore files.
   */
  static forRoot(root: string, extraPatterns: string[]): IgnoreRules {
    const ig = ignore();
    for (const text of repositoryExcludes(root)) ig.add(text);
    if (extraPatterns.length) ig.add(extraPatterns);
    for (const name of IGNORE_FILES) {
      const text = readIfExists(path.join(root, name));
      if (text) ig.add(text);
    }
    return new IgnoreRules(null, '', ig);
  }

  /** The rules in effect inside `dirRel` (repo-relative, POSIX), adding that directory's own files. */
  enter(root: string, dirRel: string): IgnoreRules {
    let ig: Ignore | null = null;
    for (const name of IGNORE_FILES) {
      const text = readIfExists(path.join(root, dirRel, name));
      if (!text) continue;
      ig ??= ignore();
      ig.add(text);
    }
    return ig ? new IgnoreRules(this, dirRel, ig) : this;
  }

  ignores(relPath: string, isDir: boolean): boolean {
    for (let level: IgnoreRules | null = this; level; level = level.parent) {
      if (!level.rules) continue;
      const local = level.dir ? relPath.slice(level.dir.length + 1) : relPath;
      if (!local) continue;
      const res = level.rules.test(isDir ? `${local}/` : local);
      if (res.ignored) return true;
      if (res.unignored) return false;
    }
    return false;
  }
}

const excludeFilesMemo = new Map<string, string[]>();

/**
 * The texts of the ignore files git reads from outside the work tree, for a repository: the global
 * excludes file (core.excludesFile, else $XDG_CONFIG_HOME/git/ignore) and `<git dir>/info/exclude`.
 * Empty outside git. Where they are is asked of git once per process and repository; what they say
 * is read each time. No change event covers files outside the work tree, so the index records a hash
 * of them (excludes_hash, indexer/state.ts) and the next update rescans when it differs.
 */
export function repositoryExcludes(root: string): string[] {
  let files = excludeFilesMemo.get(root);
  if (!files) {
    files = [];
    if (fs.existsSync(path.join(root, '.git'))) {
      // Read from .git's files (linked worktrees too): one git process less for every update a hook starts.
      let infoExclude = infoExcludePath(root);
      if (!infoExclude) {
        infoExclude = path.join(root, '.git', 'info', 'exclude');
        try {
          // --git-path finds info/exclude wherever git's environment puts the git directory.
          const rel = execFileSync('git', ['rev-parse', '--git-path', 'info/exclude'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
          infoExclude = path.resolve(root, rel.trim());
        } catch {
          /* git is not installed: the repository's own exclude file still applies */
        }
      }
      const global = globalExcludesFile(root);
      files = global ? [global, infoExclude] : [infoExclude];
    }
    excludeFilesMemo.set(root, files);
  }
  return files.map(readIfExists).filter((t): t is string => !!t);
}

/** core.excludesFile with `~` expanded by git, else git's default location; null when neither can be named. */
function globalExcludesFile(root: string): string | null {
  try {
    const v = execFileSync('git', ['config', '--path', '--get', 'core.excludesFile'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return v ? path.resolve(root, v) : defaultGlobalExcludes();
  } catch {
    return defaultGlobalExcludes(); // unset: git exits 1
  }
}

function defaultGlobalExcludes(): string | null {
  const base = process.env.XDG_CONFIG_HOME || (os.homedir() ? path.join(os.homedir(), '.config') : '');
  return base ? path.join(base, 'git', 'ignore') : null;
}

function readIfExists(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
