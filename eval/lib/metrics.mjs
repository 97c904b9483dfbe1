// Per-task metrics and aggregation, as defined in ../shared/eval/README.md §5.

/** Ranked files -> distinct repo-relative paths in order. */
export function distinctFiles(list) {
  const seen = new Set();
  const out = [];
  for (const raw of list) {
    const p = raw.replace(/^\.\//, '').replace(/::.*$/, '').replace(/:\d+(-\d+)?$/, '');
    if (!seen.has(p)) {
      seen.add(p);
      out.push(p);
    }
  }
  return out;
}

export function fileMetrics(ranked, gold) {
  const G = new Set(gold);
  const at = (k) => ranked.slice(0, k).filter((f) => G.has(f)).length;
  const firstGold = ranked.findIndex((f) => G.has(f));
  const m = { mrr: firstGold >= 0 ? 1 / (firstGold + 1) : 0 };
  for (const k of [1, 3, 5, 10]) m[`r@${k}`] = at(k) / G.size;
  for (const k of [5, 10]) m[`acc@${k}`] = at(k) === G.size ? 1 : 0;
  for (const k of [1, 5, 10]) m[`hit@${k}`] = at(k) > 0 ? 1 : 0;
  // Precision@k: the share of the first k ranked files that are gold (k in the denominator, as is usual).
  for (const k of [1, 5]) m[`p@${k}`] = at(k) / k;
  return m;
}

/** Function-level hit@10 / recall@10: symbols attached to the top 10 files against functions_edited. */
export function functionMetrics(symbolsByFile, ranked, functions) {
  if (!functions.length) return null;
  const N = new Set();
  for (const f of ranked.slice(0, 10)) {
    for (const s of symbolsByFile.get(f) ?? []) {
      const name = s.replace(/\(.*\)$/, '');
      N.add(name);
      N.add(name.split(/\.|::|:|#/).pop());
    }
  }
  const found = functions.filter((f) => N.has(f) || N.has(f.split('.').pop())).length;
  return { 'fn-hit@10': found > 0 ? 1 : 0, 'fn-recall@10': found / functions.length };
}

/**
 * Bundle recall and acc against the gold; and the PRD's precision criterion (§3, #3: "≤ 40 % of files
 * in bundle are never touched"): the share of the bundle's files the commit did not touch, with
 * `touched` = every file it edited, tests included (an empty bundle has no share).
 */
export function bundleMetrics(bundleFiles, gold, tokens, budget, touched = gold) {
  const files = [...new Set(bundleFiles)];
  const T = new Set(touched);
  const untouched = files.length ? files.filter((f) => !T.has(f)).length / files.length : null;
  if (tokens > budget) return { 'bundle-recall': 0, 'bundle-acc': 0, 'bundle-untouched': untouched, 'bundle-files': files.length, tokens };
  const G = new Set(gold);
  const hit = files.filter((f) => G.has(f)).length;
  return { 'bundle-recall': hit / G.size, 'bundle-acc': hit === G.size ? 1 : 0, 'bundle-untouched': untouched, 'bundle-files': files.length, tokens };
}

export function mean(rows, key) {
  const xs = rows.map((r) => r[key]).filter((x) => typeof x === 'number');
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
}

export function median(xs) {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
