#!/usr/bin/env node
// Two indexes of the same repository, table by table: a digest of every table's rows (sorted, so the
// order rows were written in does not count), to show that a change to how cg builds an index left
// what it stores alone. Worker threads finish in varying order, so the row ids of refs and imports
// (insertion order) and FTS5's segment layout (symbol_fts_data, symbol_fts_idx) differ between two
// builds by the same code; those are left out. meta (dates, durations) too.
//
//   node eval/compare-index.mjs A/.codegraph [B/.codegraph]    (a .codegraph folder or an index.db; one: print its digests)
//
// Exit status 1 when a table differs.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

const ORDER_DEPENDENT = { refs: ['id'], imports: ['id'] };
const SKIPPED = /^(meta|symbol_fts_data|symbol_fts_idx)$/;

function dbFile(arg) {
  if (arg.endsWith('.db')) return arg;
  const build = fs.readFileSync(path.join(arg, 'CURRENT'), 'utf8').trim();
  return path.join(arg, 'builds', build, 'index.db');
}

function digests(file) {
  const db = new Database(file, { readonly: true });
  try {
    const out = new Map();
    for (const t of db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all()) {
      if (SKIPPED.test(t)) continue;
      const cols = db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all(t).filter((c) => !(ORDER_DEPENDENT[t] ?? []).includes(c));
      const rows = db.prepare(`SELECT ${cols.map((c) => `"${c}"`).join(', ')} FROM "${t}"`).raw().all()
        .map((r) => JSON.stringify(r.map((v) => (Buffer.isBuffer(v) ? `x'${v.toString('hex')}'` : v)))).sort();
      out.set(t, { rows: rows.length, sha256: crypto.createHash('sha256').update(rows.join('\n')).digest('hex').slice(0, 16) });
    }
    return out;
  } finally {
    db.close();
  }
}

const [a, b] = process.argv.slice(2);
if (!a) {
  console.error('usage: node eval/compare-index.mjs A/.codegraph [B/.codegraph]');
  process.exit(2);
}
const da = digests(dbFile(a));
const db = b ? digests(dbFile(b)) : null;
let differ = 0;
for (const t of new Set([...da.keys(), ...(db?.keys() ?? [])])) {
  const x = da.get(t);
  const y = db?.get(t);
  const same = !db || (x && y && x.sha256 === y.sha256 && x.rows === y.rows);
  if (!same) differ++;
  console.log(`${t.padEnd(22)} ${String(x?.rows ?? '-').padStart(9)} ${x?.sha256 ?? '-'.padEnd(16)}${db ? `  ${String(y?.rows ?? '-').padStart(9)} ${y?.sha256 ?? '-'}  ${same ? 'same' : 'DIFFERENT'}` : ''}`);
}
if (db) console.log(differ ? `${differ} table(s) differ` : 'every table the same');
process.exit(differ ? 1 : 0);
