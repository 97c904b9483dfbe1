import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rankCandidates, runQuery } from '../src/retrieve/query.js';
import { FEATURES, RERANK_DEPTH } from '../src/retrieve/features.js';
import { DEFAULT_PLAIN_RANKER_FILE, DEFAULT_RANKER_FILE, loadRanker, MIN_PAST_COMMITS, parseModel, probabilities, RANKER_FORMAT, rerank, scoreOf, type RankerModel } from '../src/retrieve/ranker.js';
import { splitTask } from '../src/retrieve/task-split.js';
import { openReader } from '../src/store/db.js';
import { git, indexFixture, makeRepo, runCg, tempDir, type Indexed } from './helpers.js';

let fx: Indexed;
beforeAll(async () => {
  fx = await indexFixture('python');
}, 120_000);
afterAll(() => fx.db.close());
afterEach(() => {
  delete process.env.CG_RANKER_FILE;
  delete process.env.CG_RANKER_PLAIN_FILE;
});

const TASK = 'Cap the discount at the maximum before applying the percentage to the price';

/** A valid model with one tree: candidates whose feature `name` is above `cut` score 1, the rest 0. */
function oneSplitModel(name: string, cut: number): RankerModel {
  return {
    format: RANKER_FORMAT, features: [...FEATURES], bias: 0, linear: FEATURES.map(() => 0),
    trees: [{ f: [FEATURES.indexOf(name as (typeof FEATURES)[number]), -1, -1], t: [cut, 0, 0], l: [1, 0, 0], r: [2, 0, 0], v: [0, 0, 1] }],
    calibration: { a: 1, b: 0, c: 0 }, manifest: {}, examples: [],
  };
}

function writeModel(content: string): string {
  const file = path.join(tempDir('cg-ranker-'), 'ranker.json');
  fs.writeFileSync(file, content);
  return file;
}

describe('the shipped ranker', () => {
  it('loads, and scores its recorded examples as the trainer did', () => {
    const loaded = loadRanker(DEFAULT_RANKER_FILE);
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    const m = loaded.model;
    expect(m.features).toEqual([...FEATURES]);
    expect(m.trees.length).toBeGreaterThan(0);
    expect(m.examples.length).toBeGreaterThanOrEqual(10);
    for (const e of m.examples) expect(scoreOf(m, e.x)).toBeCloseTo(e.score, 9);
    // The manifest says what it was fitted on.
    expect(m.manifest).toMatchObject({ script: 'train/fit-ranker.mjs', seed: expect.any(Number), features_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('and the one fitted without past commits: the first 29 features, its examples scored as the trainer did', () => {
    const loaded = loadRanker(DEFAULT_PLAIN_RANKER_FILE);
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    const m = loaded.model;
    expect(m.features).toEqual(FEATURES.slice(0, 29));
    expect(m.features.some((f) => f.startsWith('hist_'))).toBe(false);
    expect(m.examples.length).toBeGreaterThanOrEqual(10);
    for (const e of m.examples) expect(scoreOf(m, e.x)).toBeCloseTo(e.score, 9);
  });

  it('ranks the fixture task with a probability per re-ordered file', async () => {
    const res = await rankCandidates(fx.db, fx.root, { text: TASK, preset: 'learned' });
    expect(res.warnings).toEqual([]);
    expect(res.ranked[0].path).toBe('shop/models.py');
    const scored = res.ranked.filter((r) => r.probability !== undefined);
    expect(scored.length).toBe(Math.min(RERANK_DEPTH, res.ranked.length));
    for (const r of scored) expect(r.probability).toBeGreaterThan(0);
    for (const r of scored) expect(r.probability).toBeLessThan(1);
    // Probabilities fall with the order.
    for (let i = 1; i < scored.length; i++) expect(scored[i].probability!).toBeLessThanOrEqual(scored[i - 1].probability!);
    // The answer's places carry their file's probability.
    const answer = await runQuery(fx.db, fx.root, { text: TASK, preset: 'learned' });
    const first = answer.files[0];
    expect(first.probability).toBeCloseTo(scored[0].probability!, 3);
    const hybrid = await runQuery(fx.db, fx.root, { text: TASK, preset: 'hybrid' });
    expect(hybrid.files.every((e) => e.probability === undefined)).toBe(true);
  });
});

describe('re-ranking', () => {
  it('puts the candidates in the model\'s order and keeps the fusion\'s scores by position', async () => {
    // A model that prefers the files defining fewer symbols reverses a ranking led by the largest file.
    const { ranked: fused, candidates } = await rankCandidates(fx.db, fx.root, { text: TASK, preset: 'learned' });
    expect(candidates!.length).toBeGreaterThan(2);
    const m = oneSplitModel('log_symbols', -1);
    m.trees[0].v = [0, 0, 0];
    m.linear[FEATURES.indexOf('log_symbols')] = -1;
    const out = rerank(m, candidates!, fused);
    const expected = [...candidates!].sort((a, b) => a.features[FEATURES.indexOf('log_symbols')] - b.features[FEATURES.indexOf('log_symbols')]
      || (a.file.path < b.file.path ? -1 : 1)).map((c) => c.file.path);
    expect(out.slice(0, candidates!.length).map((r) => r.path)).toEqual(expected);
    expect(out.map((r) => r.score)).toEqual(fused.map((r) => r.score));
  });

  it('gives a probability that grows with the score and falls behind the query\'s best', () => {
    const m = oneSplitModel('fused_rel', 0.5);
    m.calibration = { a: 2, b: 1, c: -1 };
    const p = probabilities(m, [1, 0.5, -1]);
    expect(p[0]).toBeCloseTo(1 / (1 + Math.exp(-(2 * 1 + 0 - 1))), 12);
    expect(p[1]).toBeCloseTo(1 / (1 + Math.exp(-(2 * 0.5 - 0.5 - 1))), 12);
    expect(p[0]).toBeGreaterThan(p[1]);
    expect(p[1]).toBeGreaterThan(p[2]);
  });
});

describe('a missing or damaged model', () => {
  async function hybridOrder(): Promise<string[]> {
    return (await rankCandidates(fx.db, fx.root, { text: TASK, preset: 'hybrid' })).ranked.map((r) => r.path);
  }

  it.each([
    ['missing', null, /model is missing/],
    ['not JSON', '{"format": "cg-ranker/1", "trees": [', /cannot be used/],
    ['of other features', JSON.stringify({ ...oneSplitModel('file', 0.5), features: ['file', 'defs'] }), /features are not the ones/],
    ['with a tree that loops', JSON.stringify({ ...oneSplitModel('file', 0.5), trees: [{ f: [0, -1, -1], t: [0.5, 0, 0], l: [0, 0, 0], r: [2, 0, 0], v: [0, 0, 1] }] }), /bad node/],
  ])('%s: the hybrid fusion ranks, and the answer says why', async (_what, content, warning) => {
    // The fixture has no history: the model fitted without past commits is the one read (see below).
    process.env.CG_RANKER_PLAIN_FILE = content === null ? path.join(tempDir('cg-ranker-'), 'absent.json') : writeModel(content);
    const res = await rankCandidates(fx.db, fx.root, { text: TASK, preset: 'learned' });
    expect(res.warnings.some((w) => warning.test(w))).toBe(true);
    expect(res.ranked.map((r) => r.path)).toEqual(await hybridOrder());
    expect(res.ranked.every((r) => r.probability === undefined)).toBe(true);
    // The whole query still answers.
    const answer = await runQuery(fx.db, fx.root, { text: TASK, preset: 'learned' });
    expect(answer.status).toBe('ok');
    expect(answer.warnings.some((w) => warning.test(w))).toBe(true);
  });

  it('refuses a model that is not one', () => {
    expect(() => parseModel({ format: 'other' })).toThrow(/format/);
    expect(() => parseModel(null)).toThrow(/not a JSON object/);
    const noExamples = { ...oneSplitModel('file', 0.5) } as Partial<RankerModel>;
    delete noExamples.examples;
    expect(() => parseModel(noExamples)).toThrow(/examples/);
  });
});

describe('which model ranks', () => {
  it('an index with fewer past commits than the training ever had gets the model fitted without them', async () => {
    const absent = (name: string) => path.join(tempDir('cg-ranker-'), name);
    process.env.CG_RANKER_FILE = absent('absent-with-history.json');
    process.env.CG_RANKER_PLAIN_FILE = absent('absent-plain.json');
    const warningsOf = async (root: string) => {
      const db = openReader(root);
      try {
        return (await rankCandidates(db, root, { text: 'apply the discount to the price', preset: 'learned' })).warnings.join(' ');
      } finally {
        db.close();
      }
    };
    const files = { 'shop/price.py': 'def apply_discount(price, pct):\n    return price * (100 - pct) / 100\n' };
    const young = makeRepo(files, { commit: true });
    for (let i = 1; i < MIN_PAST_COMMITS - 1; i++) git(young, 'commit', '-q', '--allow-empty', '-m', `step ${i}`);
    expect(runCg(['index', '--json'], young).code).toBe(0);
    expect(await warningsOf(young)).toMatch(/absent-plain\.json/);

    git(young, 'commit', '-q', '--allow-empty', '-m', 'one more');
    expect(runCg(['update', '--json'], young).code).toBe(0);
    const w = await warningsOf(young);
    expect(w).toMatch(/absent-with-history\.json/);
    expect(w).not.toMatch(/absent-plain/);
  }, 60_000);
});

describe('a task with execution output pasted in', () => {
  const REPORT = [
    'Storing a product crashes the service',
    '',
    'Traceback (most recent call last):',
    '  File "/home/dev/work/shop/shop/service.py", line 20, in run',
    '    self.repo.store(product)',
    '  File "/usr/lib/python3.11/site-packages/percentage/discount.py", line 12, in apply_discount',
    '    return price * (100 - pct) / 100',
    'ValueError: maximum discount exceeded',
  ].join('\n');

  it('reads the trace as signals and keeps only the words for the ranking', () => {
    const split = splitTask(fx.db, fx.root, REPORT);
    expect(split.outputLines).toBe(5);
    expect(split.words).toBe('Storing a product crashes the service\n\nValueError: maximum discount exceeded');
    expect(split.signals.filter((s) => s.exists).map((s) => s.path)).toEqual(['shop/service.py']);
  });

  it('ranks the file the trace names first and says what it read', async () => {
    const res = await rankCandidates(fx.db, fx.root, { text: REPORT, preset: 'hybrid' });
    expect(res.ranked[0].path).toBe('shop/service.py');
    expect(res.text).not.toMatch(/site-packages|Traceback/);
    expect(res.warnings.some((w) => /5 lines of the query are execution output .* 1 location in the repository/.test(w))).toBe(true);
    const answer = await runQuery(fx.db, fx.root, { text: REPORT });
    expect(answer.files.some((e) => e.rationale.includes('execution signal'))).toBe(true);
  });

  it('leaves a commit message without output as it is', () => {
    const message = 'Fix Product.discounted() for large values\n\nCall Product.apply() once: it reads MAX_DISCOUNT.\n- keep save() as is';
    expect(splitTask(fx.db, fx.root, message)).toEqual({ words: message, signals: [], outputLines: 0 });
  });
});
