import { readScrubbed } from '../secrets/read.js';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Finding the installed code of a dependency a repository imports, inside the repository: a package
 * in `node_modules`, a virtual environment's `site-packages`, `vendor/` (Go, PHP, Rust), SwiftPM's
 * `.build/checkouts`. Only inside the repository: those are the versions its lockfile installed for
 * this checkout, and answers can quote them (a global cache such as GOMODCACHE or ~/.cargo holds
 * every version ever fetched, and lies outside what cg may read back). Languages call these helpers
 * from their `installedPackage` hook (src/lang/types.ts).
 */

/** What an import of a dependency leads to. */
export interface InstalledPackage {
  /** The package as its ecosystem names it: `zod`, `@types/node`, `requests`, `github.com/go-chi/chi/v5`. */
  name: string;
  version: string | null;
  /** The files the import itself names (the package's entry, or the submodule imported), repo-relative. */
  entry: string[];
  /** Every declaration file to index for it, the entry first; at most MAX_PACKAGE_FILES. */
  files: string[];
}

/** A read-only view of the repository's files on disk, for the lookups (cached per build). */
export class InstalledTree {
  private readonly dirs = new Map<string, string[] | null>();
  private readonly texts = new Map<string, string | null>();

  constructor(readonly root: string) {}

  /** Names in a repo-relative directory, or null when it is not one. */
  list(rel: string): string[] | null {
    if (!this.dirs.has(rel)) {
      let names: string[] | null;
      try {
        names = fs.readdirSync(path.join(this.root, rel)).sort();
      } catch {
        names = null;
      }
      this.dirs.set(rel, names);
    }
    return this.dirs.get(rel)!;
  }

  isFile(rel: string): boolean {
    const dir = path.posix.dirname(rel);
    return (this.list(dir === '.' ? '' : dir) ?? []).includes(path.posix.basename(rel)) && this.list(rel) === null;
  }

  isDir(rel: string): boolean {
    return this.list(rel) !== null;
  }

  readText(rel: string): string | null {
    if (!this.texts.has(rel)) {
      let text: string | null;
      try {
        // Through the redacting reader: installed packages are files of the repository's tree too.
        text = readScrubbed(this.root, rel, MAX_READ_BYTES);
      } catch {
        text = null;
      }
      this.texts.set(rel, text);
    }
    return this.texts.get(rel)!;
  }

  readJson<T>(rel: string): T | null {
    const t = this.readText(rel);
    if (t === null) return null;
    try {
      return JSON.parse(t) as T;
    } catch {
      return null;
    }
  }
}

/** Declaration files indexed per package: the public surface of most packages fits, the rest is noise. */
export const MAX_PACKAGE_FILES = 40;
const MAX_READ_BYTES = 4 * 1024 * 1024;

/**
 * The entry files and the files they reach through relative imports (a package's `export * from
 * './types'`, `from .models import X`), breadth first, at most MAX_PACKAGE_FILES.
 */
export function withRelativeImports(tree: InstalledTree, entry: string[], relativeImports: (text: string) => string[],
  resolve: (fromFile: string, spec: string) => string | null): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const queue = [...entry];
  while (queue.length && out.length < MAX_PACKAGE_FILES) {
    const f = queue.shift()!;
    if (seen.has(f)) continue;
    seen.add(f);
    out.push(f);
    for (const spec of relativeImports(tree.readText(f) ?? '')) {
      const next = resolve(f, spec);
      if (next && !seen.has(next)) queue.push(next);
    }
  }
  return out;
}

/** The first candidate that is a file. */
export function firstFile(tree: InstalledTree, candidates: (string | null | undefined)[]): string | null {
  for (const c of candidates) if (c && tree.isFile(path.posix.normalize(c))) return path.posix.normalize(c);
  return null;
}
