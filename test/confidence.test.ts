import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../src/indexer/build.js';
import { openReader } from '../src/store/db.js';
import { runQuery } from '../src/retrieve/query.js';
import { buildContext } from '../src/retrieve/context.js';
import { CONFIDENCE_INPUTS, DEFAULT_CONFIDENCE_FILE, DEFAULT_PLAIN_CONFIDENCE_FILE, parseConfidence } from '../src/retrieve/confidence.js';
import { salientTerms } from '../src/retrieve/grep-terms.js';
import { createServer } from '../src/mcp/server.js';
import { makeRepo, runCg, tempDir } from './helpers.js';

// Calibrated confidence and "nothing relevant" (src/retrieve/confidence.ts), on a repository made here.
// The shipped model decides real answers; models written here pin the thresholds so that each kind of
// answer (ok, low, none) is reached on purpose.

const files = {
  'shop/billing.py': 'def apply_discount(price, percent):\n    """Reduce the price by a percentage, at most half."""\n    return price - price * min(percent, 50) / 100\n\n\n'
    + 'def invoice_total(lines):\n    """Sum of the invoice lines after discounts."""\n    return sum(apply_discount(l.price, l.percent) for l in lines)\n',
  'shop/catalog.py': 'def list_products(store):\n    """Every product of the store, cheapest first."""\n    return sorted(store.products, key=lambda p: p.price)\n',
  'shop/shipping.py': 'def shipping_cost(weight, country):\n    """Parcel cost by weight and destination country."""\n    return 5 + weight * (2 if country == "home" else 4)\n',
};
let repo: string;
let db: Database.Database;
// The repository has one commit, too little history for the ranker that reads past commits: the models
// fitted without them answer (src/retrieve/ranker.ts MIN_PAST_COMMITS), so their confidence model is the one used.
const shipped = JSON.parse(fs.readFileSync(DEFAULT_PLAIN_CONFIDENCE_FILE, 'utf8'));

/** A confidence model with the shipped weights and the given thresholds, used through CG_CONFIDENCE_PLAIN_FILE. */
function withThresholds(low: number, none: number): void {
  const file = path.join(tempDir('cg-conf-'), 'confidence.json');
  fs.writeFileSync(file, JSON.stringify({ ...shipped, thresholds: { low, none } }));
  process.env.CG_CONFIDENCE_PLAIN_FILE = file;
}

beforeAll(async () => {
  repo = makeRepo(files, { commit: true });
  await buildIndex(repo);
  db = openReader(repo);
});
afterAll(() => db?.close());
afterEach(() => {
  delete process.env.CG_CONFIDENCE_PLAIN_FILE;
});

describe('calibrated confidence', () => {
  it('gives each place the calibrated probability of its file, and marks weak only the places below the threshold', async () => {
    withThresholds(0.01, 0.005);
    const res = await runQuery(db, repo, { text: 'apply_discount should cap the percentage' });
    expect(res.confidence_level).toBe('ok');
    expect(res.files[0].path).toBe('shop/billing.py');
    for (const e of res.files) {
      expect(e.confidence).toBeGreaterThanOrEqual(0);
      expect(e.confidence).toBeLessThanOrEqual(1);
    }
    // Places of one file share its probability.
    const billing = res.files.filter((e) => e.path === 'shop/billing.py').map((e) => e.confidence);
    expect(new Set(billing).size).toBe(1);
    expect(res.files[0].weak).toBeUndefined();
    for (const e of res.files) expect(e.weak === true).toBe(e.confidence < 0.01);
  });

  it('says plainly that nothing matched well, what to grep instead, and marks every place weak', async () => {
    withThresholds(0.999, 0);
    const res = await runQuery(db, repo, { text: 'apply_discount should cap the percentage' });
    expect(res.status).toBe('ok');
    expect(res.confidence_level).toBe('low');
    expect(res.files.length).toBeGreaterThan(0);
    expect(res.files.every((e) => e.weak)).toBe(true);
    expect(res.suggestion).toMatch(/^Nothing in the index matched this task well \(best confidence 0\.\d\d\)/);
    expect(res.grep_terms).toEqual(salientTerms('apply_discount should cap the percentage', { stems: false }).slice(0, 5));
    expect(res.suggestion).toContain("Grep for these words instead: 'apply_discount'");
    const bundle = await buildContext(db, repo, { text: 'apply_discount should cap the percentage' });
    expect(bundle.confidence_level).toBe('low');
    expect(bundle.summary).toMatch(/^Nothing in the index matched this task well/);
  });

  it('answers empty_results below the lower threshold, keeping the guesses as weak candidates', async () => {
    withThresholds(0.999, 0.998);
    const res = await runQuery(db, repo, { text: 'apply_discount should cap the percentage' });
    expect(res).toMatchObject({ status: 'empty_results', files: [], confidence_level: 'none', tokens_used: 0 });
    expect(res.weak_candidates!.length).toBeGreaterThan(0);
    expect(res.weak_candidates!.every((e) => e.weak)).toBe(true);
    expect(res.suggestion).toContain('no place is worth showing');
  });

  it('the CLI and the MCP tool say the same', async () => {
    withThresholds(0.999, 0.998);
    const env = { CG_CONFIDENCE_PLAIN_FILE: process.env.CG_CONFIDENCE_PLAIN_FILE };
    const text = runCg(['query', 'apply_discount should cap the percentage'], repo, { env });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('No results. Nothing in the index matched this task well');
    expect(text.stdout).toMatch(/Weak guesses \(likely unrelated\):\n {2}shop\/billing\.py:\d+-\d+ {2}apply_discount .*\(weak\)/);
    const json = runCg(['query', 'apply_discount should cap the percentage', '--json'], repo, { env }).json;
    expect(json).toMatchObject({ status: 'empty_results', confidence_level: 'none' });
    const h = createServer(repo, { toolsets: ['all'] });
    try {
      const none = await h.call('codegraph_query', { query: 'apply_discount should cap the percentage' });
      expect(none.isError).toBe(true);
      expect(none.structuredContent).toMatchObject({ status: 'error', error_type: 'empty_results' });
      expect((none.structuredContent as any).message).toMatch(/matches .* well$/);
      expect((none.structuredContent as any).partial_results[0]).toMatchObject({ path: 'shop/billing.py', weak: true });
      withThresholds(0.999, 0);
      const low = await h.call('codegraph_query', { query: 'apply_discount should cap the percentage' });
      expect(low.isError).toBeFalsy();
      expect(low.structuredContent).toMatchObject({ status: 'success', low_confidence: true });
      expect(low.content[0].text).toMatch(/^\*\*Nothing in the index matched this task well/);
      expect(low.content[0].text).toContain('(weak)');
    } finally {
      h.live.close();
    }
  });

  it('flags a task from another domain with the shipped model', async () => {
    const res = await runQuery(db, repo, { text: 'Fix the knitting pattern row counter when stitches are decreased' });
    expect(res.status === 'empty_results' || res.confidence_level === 'low').toBe(true);
    expect(res.grep_terms).toContain('knitting');
  });

  it('keeps the relative confidence when documents are ranked too (the model was fitted on code)', async () => {
    withThresholds(0.999, 0.998);
    const res = await runQuery(db, repo, { text: 'apply_discount should cap the percentage', filterType: 'all' });
    expect(res.status).toBe('ok');
    expect(res.confidence_level).toBeUndefined();
    expect(res.files.every((e) => e.weak === undefined)).toBe(true);
  });

  it('falls back to relative confidences, with a warning, when the model is missing or damaged', async () => {
    process.env.CG_CONFIDENCE_PLAIN_FILE = path.join(tempDir('cg-conf-'), 'missing.json');
    const res = await runQuery(db, repo, { text: 'apply_discount should cap the percentage' });
    expect(res.confidence_level).toBeUndefined();
    expect(res.warnings.join(' ')).toMatch(/confidence model is missing/);
    expect(res.files[0].confidence).toBeGreaterThan(0);
    expect(() => parseConfidence({ ...shipped, inputs: ['x'] })).toThrow(/inputs/);
    expect(() => parseConfidence({ ...shipped, thresholds: { low: 0.1, none: 0.2 } })).toThrow(/thresholds/);
    expect(() => parseConfidence({ ...shipped, weights: [1] })).toThrow(/weights/);
    expect(parseConfidence(shipped).inputs).toEqual([...CONFIDENCE_INPUTS]);
    // The model over the ranker that reads past commits loads too.
    expect(parseConfidence(JSON.parse(fs.readFileSync(DEFAULT_CONFIDENCE_FILE, 'utf8'))).inputs).toEqual([...CONFIDENCE_INPUTS]);
  });
});
