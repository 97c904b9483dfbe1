import path from 'node:path';
import type Database from 'better-sqlite3';
import { CgError } from '../errors.js';
import { toRepoPath } from '../repo/root.js';
import { fileByPath, importEdgesOfFile, importsOfFile, skippedByPath, symbolsWhere, type ImportRow, type SymbolInfo } from './queries.js';

export interface FileOverview {
  file: string;
  language: string;
  loc: number;
  partial: boolean;
  errorCount: number;
  isTest: boolean;
  warnings: string[];
  /** Definitions in source order; depth 0 is the top level. */
  symbols: (SymbolInfo & { depth: number })[];
  imports: (ImportRow & { resolved: { file: string; symbol: string | null }[]; external: boolean })[];
  exports: string[];
}

/** The path as typed (relative to cwd) if it is indexed, else the same text read as repo-relative. */
function candidates(root: string, p: string, cwd: string): string[] {
  const out: string[] = [];
  try {
    out.push(toRepoPath(root, p, cwd));
  } catch {
    /* outside the repository from cwd; may still be repo-relative */
  }
  const asRepo = path.posix.normalize(p.replace(/\\/g, '/')).replace(/^\.\//, '');
  if (!asRepo.startsWith('../') && !path.isAbsolute(asRepo)) out.push(asRepo);
  return [...new Set(out)];
}

/** `cwd`: what a relative path is relative to first (the server passes the root: its cwd is not the agent's). */
export function fileOverview(db: Database.Database, root: string, p: string, cwd = process.cwd()): FileOverview {
  const paths = candidates(root, p, cwd);
  if (!paths.length) {
    throw new CgError('usage', `${p} is outside the repository at ${root}`, 'Give a path inside the indexed repository.');
  }
  const row = paths.map((c) => fileByPath(db, c)).find((r) => r);
  if (!row) {
    for (const c of paths) {
      const skip = skippedByPath(db, c);
      if (skip) {
        throw new CgError('not_found', `${c} is not indexed: skipped as ${skip.reason}${skip.detail ? ` (${skip.detail})` : ''}`,
          skip.reason === 'secret' ? 'If this is a false positive, add the fingerprint from `cg status` to .cgsecrets and run `cg index`.'
            : 'See `cg status` for what is skipped and why.');
      }
    }
    throw new CgError('not_found', `${paths[0]} is not in the index`,
      'Check the path (relative to the current directory or the repository root); if the file is new, run `cg index`.');
  }
  const all = symbolsWhere(db, 's.file_id = ?', [row.id], 'ORDER BY s.start_line, s.end_line DESC, s.id');
  const module = all.find((s) => s.kind === 'module' && s.parentId === null);
  const depth = new Map<number, number>();
  if (module) depth.set(module.id, -1);
  const symbols = all.filter((s) => s !== module).map((s) => {
    const d = (s.parentId !== null ? depth.get(s.parentId) ?? -1 : -1) + 1;
    depth.set(s.id, d);
    return { ...s, depth: d };
  });
  const edges = importEdgesOfFile(db, row.id);
  const rows = importsOfFile(db, row.id);
  // Rows without a module are local export aliases (`export default a`): exports, not imports.
  const imports = rows.filter((imp) => imp.module).map((imp) => {
    const here = edges.filter((e) => e.line === imp.line);
    return {
      ...imp,
      resolved: here.filter((e) => e.file).map((e) => ({ file: e.file!, symbol: e.kind === 'module' ? null : e.qualifiedName })),
      external: here.some((e) => e.dst === null),
    };
  });
  const reexported = rows.filter((i) => i.reexport).flatMap((i) => i.names.map((n) => n.alias ?? n.name));
  return {
    file: row.path, language: row.language, loc: row.loc, partial: row.partial, errorCount: row.errorCount, isTest: row.isTest,
    warnings: row.warnings,
    symbols,
    imports,
    exports: [...new Set([...symbols.filter((s) => s.exported).map((s) => s.name), ...reexported])],
  };
}
