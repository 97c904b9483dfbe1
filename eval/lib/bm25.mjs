// The evaluation's BM25 baseline, exactly as ../shared/eval/README.md §6 describes it: whole files,
// path + text, k1 0.9, b 0.4, top 50. Used to report the baseline in the same run as cg.
import fs from 'node:fs';
import path from 'node:path';
import { baselineTokenize as tokenize } from '../../dist/retrieve/tokenize.js';

const SOURCE_EXT = new Set(('.py .pyi .ts .tsx .mts .cts .js .jsx .mjs .cjs .go .java .kt .kts .scala .php .rs .rb .c .h .cc '
  + '.cpp .cxx .hpp .hh .cs .swift .m .mm .lua .ex .exs .erl .clj .dart .vue .svelte').split(' '));
const SKIP_DIRS = new Set(('.git node_modules vendor dist build target __pycache__ .venv venv .tox .mypy_cache .pytest_cache '
  + 'coverage .next .nuxt site-packages .idea .vscode .cache').split(' '));
const TEST_DIRS = new Set('test tests __tests__ testing spec specs __mocks__ testdata fixtures runtime-tests runtime_tests e2e'.split(' '));

export function isTestPath(p) {
  const parts = p.split('/');
  const base = parts.pop();
  if (parts.some((d) => TEST_DIRS.has(d.toLowerCase()))) return true;
  if (/^test_.*\.py$|_test\.py$|^conftest\.py$|_test\.go$|_spec\.rb$|_test\.rb$/.test(base)) return true;
  if (/\.(test|spec|test-d)\.[^.]+$/.test(base) && /\.(m|c)?[jt]sx?$/.test(base)) return true;
  if (/(Test|Tests|TestCase|IT)\.(java|kt|php|cs|scala|swift)$/.test(base)) return true;
  return p.startsWith('src/test/') || p.includes('/src/test/');
}

/** The candidate pool: source files of the checkout (optionally without tests). */
export function pool(root, { tests }) {
  const out = [];
  const walk = (rel) => {
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (e.name.startsWith('.') || SKIP_DIRS.has(e.name)) continue;
        walk(r);
      } else if (e.isFile() && SOURCE_EXT.has(path.extname(e.name)) && !e.name.endsWith('.min.js')) {
        if (fs.statSync(path.join(root, r)).size > 1_000_000) continue;
        if (!tests && isTestPath(r)) continue;
        out.push(r);
      }
    }
  };
  walk('');
  return out.sort();
}

/** The baseline's "index": every file's term counts, document frequencies and the average length. */
export function bm25Index(root, files) {
  const docs = files.map((f) => {
    const tf = new Map();
    const tokens = tokenize(`${f.replace(/\//g, ' ')} ${fs.readFileSync(path.join(root, f), 'utf8')}`);
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    return { f, tf, len: tokens.length };
  });
  const df = new Map();
  for (const d of docs) for (const t of d.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  return { docs, df, avg: docs.reduce((a, d) => a + d.len, 0) / Math.max(1, docs.length) };
}

export function bm25Query(index, query, { k1 = 0.9, b = 0.4, top = 50 } = {}) {
  const { docs, df, avg } = index;
  const N = docs.length;
  const qtf = new Map();
  for (const t of tokenize(query)) qtf.set(t, (qtf.get(t) ?? 0) + 1);
  const scored = docs.map((d) => {
    let s = 0;
    for (const [t, q] of qtf) {
      const f = d.tf.get(t);
      if (!f) continue;
      const n = df.get(t);
      const idf = Math.log(1 + (N - n + 0.5) / (n + 0.5));
      s += q * idf * (f * (k1 + 1)) / (f + k1 * (1 - b + (b * d.len) / avg));
    }
    return { file: d.f, score: s };
  }).filter((x) => x.score > 0);
  scored.sort((a, c) => c.score - a.score || (a.file < c.file ? -1 : 1));
  return scored.slice(0, top).map((x) => x.file);
}

export function bm25Rank(root, files, query, opts = {}) {
  return bm25Query(bm25Index(root, files), query, opts);
}
