import type Database from 'better-sqlite3';
import { parseUnifiedDiff } from '../repo/diff.js';
import { fileByPath, findSymbolsByRef, symbolsWhere, type SymbolInfo } from '../store/queries.js';

/**
 * The symbols a change touches, from what an agent has at hand: changed files, symbol names, or a
 * unified diff. Inputs that match nothing in the index are returned as such, not dropped silently.
 */
export interface ChangeInput {
  files?: string[];
  symbols?: string[];
  diff?: string;
}

export interface ChangedSymbol {
  symbol: SymbolInfo;
  /** Why it counts as changed: named, in a changed file, or the diff's lines. */
  reason: string;
}

export interface ChangeTargets {
  changed: ChangedSymbol[];
  unmatched: { input: string; reason: string }[];
}

export function changeTargets(db: Database.Database, input: ChangeInput, checkPath: (p: string) => string): ChangeTargets {
  const changed = new Map<number, ChangedSymbol>();
  const unmatched: ChangeTargets['unmatched'] = [];
  const add = (s: SymbolInfo, reason: string) => {
    if (!changed.has(s.id)) changed.set(s.id, { symbol: s, reason });
  };
  for (const raw of input.symbols ?? []) {
    const found = findSymbolsByRef(db, raw);
    if (!found.length) unmatched.push({ input: raw, reason: 'no symbol has this name' });
    for (const s of found) add(s, found.length > 1 ? `named (one of ${found.length} symbols called ${raw})` : 'named');
  }
  for (const raw of input.files ?? []) {
    const p = checkPath(raw);
    const f = fileByPath(db, p);
    if (!f) {
      unmatched.push({ input: raw, reason: 'not in the index' });
      continue;
    }
    // The whole file changed: its module stands for importers, its top-level definitions for callers.
    for (const s of symbolsWhere(db, "s.file_id = ? AND (s.parent_id IS NULL OR s.parent_id IN (SELECT id FROM symbols WHERE file_id = ? AND kind = 'module' AND parent_id IS NULL))",
      [f.id, f.id], 'ORDER BY s.start_line')) add(s, 'in a changed file');
  }
  if (input.diff) {
    for (const d of parseUnifiedDiff(input.diff)) {
      let p: string;
      try {
        p = checkPath(d.path);
      } catch {
        unmatched.push({ input: d.path, reason: 'outside the repository' });
        continue;
      }
      const f = fileByPath(db, p);
      if (!f) {
        unmatched.push({ input: p, reason: d.status === 'added' ? 'a new file, not in the index yet' : 'not in the index' });
        continue;
      }
      for (const [a, b] of d.ranges) {
        // The innermost definitions around the changed lines; top-level code counts as the module.
        const around = symbolsWhere(db, 's.file_id = ? AND s.start_line <= ? AND s.end_line >= ?', [f.id, b, a],
          'ORDER BY s.end_line - s.start_line');
        const inner = around.filter((s) => !around.some((o) => o !== s && o.parentId === s.id));
        const picked = inner.filter((s) => s.kind !== 'module');
        for (const s of picked.length ? picked : inner) add(s, `the diff changes lines ${a}-${b} of ${p}`);
      }
    }
  }
  return { changed: [...changed.values()], unmatched };
}
