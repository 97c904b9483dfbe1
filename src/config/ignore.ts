import fs from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

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

  /** Root rules: `.git/info/exclude`, the configured excludes, then the root ignore files. */
  static forRoot(root: string, extraPatterns: string[]): IgnoreRules {
    const ig = ignore();
    const exclude = readIfExists(path.join(root, '.git', 'info', 'exclude'));
    if (exclude) ig.add(exclude);
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

function readIfExists(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
