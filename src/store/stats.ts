import type Database from 'better-sqlite3';
import type { CallStats, CallTier, ImportStats } from '../resolve/types.js';

/** Call-site resolution per language, from the resolution recorded on each ref. */
export function callStats(db: Database.Database): Record<string, CallStats> {
  const out: Record<string, CallStats> = {};
  const rows = db.prepare(`SELECT f.language, r.resolution, COUNT(*) FROM refs r JOIN files f ON f.id = r.file_id
    WHERE r.kind = 'call' GROUP BY 1, 2 ORDER BY 1, 2`).raw().all() as [string, string | null, number][];
  for (const [lang, res, n] of rows) {
    const st = (out[lang] ??= { total: 0, resolved: 0, external: 0, unresolved: 0, values: 0, byTier: {} });
    st.total += n;
    if (res === 'external') st.external += n;
    else if (res === 'value') st.values += n;
    else if (res === 'unresolved' || res === null) st.unresolved += n;
    else {
      st.resolved += n;
      st.byTier[res as CallTier] = (st.byTier[res as CallTier] ?? 0) + n;
    }
  }
  return out;
}

/** Imports per language: resolved to repository files, external, or unresolved (a relative path to nothing). */
export function importStats(db: Database.Database): Record<string, ImportStats> {
  const out: Record<string, ImportStats> = {};
  const rows = db.prepare(`SELECT f.language, i.resolution, COUNT(*) FROM imports i JOIN files f ON f.id = i.file_id
    WHERE i.module != '' AND f.external = 0 GROUP BY 1, 2 ORDER BY 1, 2`).raw().all() as [string, string | null, number][];
  for (const [lang, res, n] of rows) {
    const st = (out[lang] ??= { total: 0, internal: 0, external: 0, unresolved: 0 });
    st.total += n;
    if (res === 'internal' || res === 'external') st[res] += n;
    else st.unresolved += n;
  }
  return out;
}
