import fs from 'node:fs';
import path from 'node:path';
import ignore from 'ignore';
import type Database from 'better-sqlite3';
import { indexedFiles } from '../store/analysis-data.js';
import { readContained } from '../repo/contained.js';

/**
 * Ownership from CODEOWNERS (GitHub's locations and rules: the first file found of
 * .github/CODEOWNERS, CODEOWNERS, docs/CODEOWNERS; gitignore-style patterns; the last matching line
 * wins; a pattern with no owners unassigns). Per file its owners and the line that decided; per owner
 * the files and lines of code they own; and the files nobody owns.
 */
export const CODEOWNERS_PLACES = ['.github/CODEOWNERS', 'CODEOWNERS', 'docs/CODEOWNERS'];

export interface OwnerRule {
  line: number;
  pattern: string;
  owners: string[];
}

export interface OwnershipReport {
  file: string | null;
  rules: number;
  files: { path: string; owners: string[]; rule: number | null }[];
  owners: { owner: string; files: number; loc: number }[];
  unowned: number;
  /** Lines of CODEOWNERS that could not be read (with why). */
  problems: { line: number; text: string; reason: string }[];
}

export function parseCodeowners(text: string): { rules: OwnerRule[]; problems: OwnershipReport['problems'] } {
  const rules: OwnerRule[] = [];
  const problems: OwnershipReport['problems'] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (!line) return;
    const [pattern, ...owners] = line.split(/\s+/);
    const bad = owners.find((o) => !/^@[\w.-]+(\/[\w.-]+)?$/.test(o) && !/^[^@\s]+@[^@\s]+$/.test(o));
    if (bad) problems.push({ line: i + 1, text: raw, reason: `"${bad}" is not an @user, @org/team or e-mail address` });
    rules.push({ line: i + 1, pattern, owners });
  });
  return { rules, problems };
}

export function ownership(db: Database.Database, root: string): OwnershipReport {
  const file = CODEOWNERS_PLACES.find((p) => fs.existsSync(path.join(root, p))) ?? null;
  // Contained: a CODEOWNERS that is a link to a file outside the repository is not read (its lines would be quoted).
  const read = file ? readContained(root, file, 1_000_000) : null;
  const { rules, problems } = read?.ok ? parseCodeowners(read.data.toString('utf8')) : { rules: [], problems: [] };
  const matchers = rules.map((r) => ignore().add(r.pattern));
  const loc = new Map((db.prepare('SELECT path, loc FROM files').raw().all() as [string, number][]));
  const files = indexedFiles(db).map((f) => {
    let rule: OwnerRule | null = null;
    for (let i = rules.length - 1; i >= 0; i--) {
      if (matchers[i].ignores(f.path)) {
        rule = rules[i];
        break;
      }
    }
    return { path: f.path, owners: rule?.owners ?? [], rule: rule?.line ?? null };
  });
  const by = new Map<string, { owner: string; files: number; loc: number }>();
  for (const f of files) {
    for (const o of f.owners) {
      const e = by.get(o) ?? { owner: o, files: 0, loc: 0 };
      e.files++;
      e.loc += loc.get(f.path) ?? 0;
      by.set(o, e);
    }
  }
  return { file, rules: rules.length, files, owners: [...by.values()].sort((a, b) => b.loc - a.loc || a.owner.localeCompare(b.owner)),
    unowned: files.filter((f) => !f.owners.length).length, problems };
}
