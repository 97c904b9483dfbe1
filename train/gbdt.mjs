// Gradient-boosted regression trees for ranking (LambdaMART: LambdaRank gradients with NDCG swap
// weights, Newton leaf values), and a pairwise linear ranker to compare against. Plain JavaScript, no
// dependencies, deterministic: the same data and options give the same model.
//
// Data: { X: Float64Array[] (one row per candidate), y: Uint8Array (1 = gold), groups: [start, end) per query }.
// A model is { bias, linear: number[], trees: [{ f, t, l, r, v }] } as src/retrieve/ranker.ts reads it.

/** Up to maxBins - 1 cut points per feature at its quantiles (distinct values); x goes to the first bin whose cut is >= x. */
export function binEdges(X, nFeatures, maxBins = 64) {
  const edges = [];
  for (let j = 0; j < nFeatures; j++) {
    const vals = Float64Array.from(X, (row) => row[j]).sort();
    const cuts = [];
    for (let b = 1; b < maxBins; b++) {
      const v = vals[Math.min(vals.length - 1, Math.floor((b * vals.length) / maxBins))];
      if (!cuts.length || v > cuts[cuts.length - 1]) cuts.push(v);
    }
    // The largest value needs no cut: everything above the last cut is the last bin.
    if (cuts.length && cuts[cuts.length - 1] >= vals[vals.length - 1]) cuts.pop();
    edges.push(Float64Array.from(cuts));
  }
  return edges;
}

function binOf(cuts, x) {
  let lo = 0;
  let hi = cuts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (x <= cuts[mid]) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export function binMatrix(X, edges) {
  const n = X.length;
  const m = edges.length;
  const B = new Uint8Array(n * m);
  for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) B[i * m + j] = binOf(edges[j], X[i][j]);
  return B;
}

/** LambdaRank gradients (g: direction to raise the score) and hessians for every row, from the current scores. */
function lambdas(scores, y, groups, g, h, sigma = 1) {
  g.fill(0);
  h.fill(0);
  for (const [start, end] of groups) {
    const n = end - start;
    const idx = Array.from({ length: n }, (_, k) => start + k).sort((a, b) => scores[b] - scores[a]);
    const rank = new Map(idx.map((r, k) => [r, k]));
    let ideal = 0;
    let pos = 0;
    for (let k = start; k < end; k++) if (y[k]) ideal += 1 / Math.log2(2 + pos++);
    if (!pos || pos === n) continue;
    for (let a = start; a < end; a++) {
      if (!y[a]) continue;
      for (let b = start; b < end; b++) {
        if (y[b]) continue;
        const ra = rank.get(a);
        const rb = rank.get(b);
        const dNdcg = Math.abs(1 / Math.log2(2 + ra) - 1 / Math.log2(2 + rb)) / ideal;
        const rho = 1 / (1 + Math.exp(sigma * (scores[a] - scores[b])));
        const lam = sigma * rho * dNdcg;
        const w = sigma * sigma * rho * (1 - rho) * dNdcg;
        g[a] += lam;
        g[b] -= lam;
        h[a] += w;
        h[b] += w;
      }
    }
  }
}

/** One regression tree on (g, h) by histogram splits, depth-first; returns the tree and adds its output to `scores`. */
function fitTree(B, m, edges, rows, g, h, opts) {
  const tree = { f: [], t: [], l: [], r: [], v: [] };
  const nBins = 64;
  const grow = (rowsHere, depth) => {
    const id = tree.f.length;
    tree.f.push(-1);
    tree.t.push(0);
    tree.l.push(0);
    tree.r.push(0);
    tree.v.push(0);
    let G = 0;
    let H = 0;
    for (const i of rowsHere) {
      G += g[i];
      H += h[i];
    }
    tree.v[id] = (opts.rate * G) / (H + opts.l2);
    if (depth >= opts.depth || rowsHere.length < 2 * opts.minLeaf) return id;
    const parentGain = (G * G) / (H + opts.l2);
    let best = { gain: opts.minGain, f: -1, bin: -1 };
    const hg = new Float64Array(nBins);
    const hh = new Float64Array(nBins);
    const hc = new Uint32Array(nBins);
    for (let j = 0; j < m; j++) {
      const cuts = edges[j].length;
      if (!cuts) continue;
      hg.fill(0);
      hh.fill(0);
      hc.fill(0);
      for (const i of rowsHere) {
        const b = B[i * m + j];
        hg[b] += g[i];
        hh[b] += h[i];
        hc[b]++;
      }
      let gl = 0;
      let hl = 0;
      let cl = 0;
      for (let b = 0; b < cuts; b++) {
        gl += hg[b];
        hl += hh[b];
        cl += hc[b];
        const cr = rowsHere.length - cl;
        if (cl < opts.minLeaf || cr < opts.minLeaf) continue;
        const gr = G - gl;
        const hr = H - hl;
        const gain = (gl * gl) / (hl + opts.l2) + (gr * gr) / (hr + opts.l2) - parentGain;
        if (gain > best.gain) best = { gain, f: j, bin: b };
      }
    }
    if (best.f < 0) return id;
    const left = [];
    const right = [];
    for (const i of rowsHere) (B[i * m + best.f] <= best.bin ? left : right).push(i);
    tree.f[id] = best.f;
    tree.t[id] = edges[best.f][best.bin];
    tree.v[id] = 0;
    tree.l[id] = grow(left, depth + 1);
    tree.r[id] = grow(right, depth + 1);
    return id;
  };
  grow(rows, 0);
  return tree;
}

export function treeValue(t, x) {
  let i = 0;
  while (t.f[i] !== -1) i = x[t.f[i]] <= t.t[i] ? t.l[i] : t.r[i];
  return t.v[i];
}

export function scoreModel(model, x) {
  let s = model.bias;
  for (let j = 0; j < model.linear.length; j++) s += model.linear[j] * x[j];
  for (const t of model.trees) s += treeValue(t, x);
  return s;
}

/**
 * LambdaMART. `onTree(model, k)` is called after each tree (for validation and early stopping); it
 * returns false to stop.
 */
export function fitLambdaMart(train, opts, onTree) {
  const o = { trees: 300, depth: 5, rate: 0.1, minLeaf: 50, l2: 1, minGain: 1e-6, ...opts };
  const m = train.X[0].length;
  const edges = binEdges(train.X, m);
  const B = binMatrix(train.X, edges);
  const n = train.X.length;
  const scores = new Float64Array(n);
  const g = new Float64Array(n);
  const h = new Float64Array(n);
  const rows = Array.from({ length: n }, (_, i) => i);
  const model = { bias: 0, linear: new Array(m).fill(0), trees: [] };
  for (let k = 0; k < o.trees; k++) {
    lambdas(scores, train.y, train.groups, g, h);
    const tree = fitTree(B, m, edges, rows, g, h, o);
    model.trees.push(tree);
    for (let i = 0; i < n; i++) scores[i] += treeValue(tree, train.X[i]);
    if (onTree && onTree(model, k + 1) === false) break;
  }
  return model;
}

/**
 * A linear pairwise ranker (RankNet with a linear score): logistic loss on every gold/non-gold pair of
 * a query, features standardised, L2, full-batch gradient descent. Returned in the model's raw scale.
 */
export function fitPairwiseLinear(train, opts = {}) {
  const o = { iterations: 400, rate: 0.5, l2: 1e-3, ...opts };
  const m = train.X[0].length;
  const n = train.X.length;
  const mean = new Float64Array(m);
  const sd = new Float64Array(m);
  for (const x of train.X) for (let j = 0; j < m; j++) mean[j] += x[j] / n;
  for (const x of train.X) for (let j = 0; j < m; j++) sd[j] += (x[j] - mean[j]) ** 2 / n;
  for (let j = 0; j < m; j++) sd[j] = Math.sqrt(sd[j]) || 1;
  const Z = train.X.map((x) => Float64Array.from(x, (v, j) => (v - mean[j]) / sd[j]));
  const w = new Float64Array(m);
  const pairs = [];
  for (const [s, e] of train.groups) for (let a = s; a < e; a++) if (train.y[a]) for (let b = s; b < e; b++) if (!train.y[b]) pairs.push([a, b]);
  for (let it = 0; it < o.iterations; it++) {
    const grad = new Float64Array(m);
    const sc = Z.map((z) => z.reduce((acc, v, j) => acc + v * w[j], 0));
    for (const [a, b] of pairs) {
      const p = 1 / (1 + Math.exp(sc[a] - sc[b]));
      for (let j = 0; j < m; j++) grad[j] += (p * (Z[a][j] - Z[b][j])) / pairs.length;
    }
    for (let j = 0; j < m; j++) w[j] += o.rate * (grad[j] - o.l2 * w[j]);
  }
  const linear = Array.from(w, (v, j) => v / sd[j]);
  const bias = -linear.reduce((acc, v, j) => acc + v * mean[j], 0);
  return { bias, linear, trees: [] };
}

/** Logistic calibration p = σ(a·s + b·(s − max s of the query) + c), fitted by Newton's method on the rows' labels. */
export function fitCalibration(scores, y, groups, iterations = 50) {
  const n = scores.length;
  const rel = new Float64Array(n);
  for (const [s, e] of groups) {
    let best = -Infinity;
    for (let i = s; i < e; i++) best = Math.max(best, scores[i]);
    for (let i = s; i < e; i++) rel[i] = scores[i] - best;
  }
  let w = [0, 0, 0];
  for (let it = 0; it < iterations; it++) {
    const g = [0, 0, 0];
    const H = [[1e-6, 0, 0], [0, 1e-6, 0], [0, 0, 1e-6]];
    for (let i = 0; i < n; i++) {
      const f = [scores[i], rel[i], 1];
      const p = 1 / (1 + Math.exp(-(w[0] * f[0] + w[1] * f[1] + w[2])));
      for (let a = 0; a < 3; a++) {
        g[a] += (y[i] - p) * f[a];
        for (let b = 0; b < 3; b++) H[a][b] += p * (1 - p) * f[a] * f[b];
      }
    }
    const step = solve3(H, g);
    w = w.map((v, k) => v + step[k]);
    if (Math.max(...step.map(Math.abs)) < 1e-9) break;
  }
  return { a: w[0], b: w[1], c: w[2], rel };
}

function solve3(A, b) {
  const M = A.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < 3; c++) {
    let p = c;
    for (let r = c + 1; r < 3; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    [M[c], M[p]] = [M[p], M[c]];
    for (let r = 0; r < 3; r++) {
      if (r === c) continue;
      const f = M[r][c] / M[c][c];
      for (let k = c; k < 4; k++) M[r][k] -= f * M[c][k];
    }
  }
  return [0, 1, 2].map((i) => M[i][3] / M[i][i]);
}

/** Brier score, expected calibration error and a 10-bin reliability table of (probability, label) pairs. */
export function reliabilityTable(pairs) {
  const bins = Array.from({ length: 10 }, (_, k) => ({ lo: k / 10, hi: (k + 1) / 10, n: 0, sumP: 0, sumY: 0 }));
  let brier = 0;
  for (const { p, y } of pairs) {
    brier += (p - y) ** 2;
    const b = bins[Math.min(9, Math.floor(p * 10))];
    b.n++;
    b.sumP += p;
    b.sumY += y;
  }
  let ece = 0;
  for (const b of bins) if (b.n) ece += (b.n / pairs.length) * Math.abs(b.sumP / b.n - b.sumY / b.n);
  return { brier: brier / pairs.length, ece, bins: bins.filter((b) => b.n).map((b) => ({ lo: b.lo, hi: b.hi, n: b.n, meanP: b.sumP / b.n, rate: b.sumY / b.n })) };
}
