import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../src/indexer/build.js';
import { openReader } from '../src/store/db.js';
import { buildContext } from '../src/retrieve/context.js';
import { tokenCounter } from '../src/retrieve/tokens.js';
import { git, makeRepo } from './helpers.js';
// @ts-expect-error: an evaluation library in plain JavaScript, without type declarations
import { CALL_OVERHEAD, Trace, Workspace, cgFirst, editedLines, grepAndRead, salientTerms } from '../eval/lib/agents.mjs';

// The scripted agents of eval/token-savings.mjs on a repository made here: a commit that changes one
// function of a long file, the agents' reading counted line by line.

const filler = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `def ${tag}_helper_${i}(x):\n    return x + ${i}\n`).join('\n');
const BILLING_V1 = `${filler(60, 'ledger')}\n\ndef apply_discount(price, percent):\n    """Reduce the price by a percentage."""\n    return price - price * percent / 100\n\n${filler(60, 'tally')}`;
const BILLING_V2 = BILLING_V1.replace('    return price - price * percent / 100', '    percent = min(percent, 50)\n    return price - price * percent / 100');

let repo: string;
let before: string;
let after: string;
let db: Database.Database;
let count: (text: string) => number;
const task = {
  description: 'Cap the discount percentage in apply_discount\n\nA discount above half the price made invoices negative.',
  source_files_edited: ['shop/billing.py'], files_edited: ['shop/billing.py'],
} as Record<string, any>;

beforeAll(async () => {
  repo = makeRepo({
    'shop/billing.py': BILLING_V1,
    'shop/catalog.py': 'def list_products(store):\n    """Every product, with its price before any discount."""\n    return sorted(store.products, key=lambda p: p.price)\n',
    'shop/shipping.py': 'def shipping_cost(weight):\n    return 5 + weight * 2\n',
    'tests/test_billing.py': 'from shop.billing import apply_discount\n\ndef test_discount():\n    assert apply_discount(100, 10) == 90\n',
  }, { commit: true });
  before = git(repo, 'rev-parse', 'HEAD');
  fs.writeFileSync(path.join(repo, 'shop/billing.py'), BILLING_V2);
  git(repo, 'commit', '-qam', 'cap the discount');
  after = git(repo, 'rev-parse', 'HEAD');
  git(repo, 'checkout', '-q', before);
  Object.assign(task, { commit_before: before, commit_after: after });
  await buildIndex(repo);
  db = openReader(repo);
  count = await tokenCounter();
});
afterAll(() => db?.close());

const pool = () => ['shop/billing.py', 'shop/catalog.py', 'shop/shipping.py'];

describe('the scripted agents of the token-savings evaluation', () => {
  it('reads the edited lines from the commit, on the old side', () => {
    const edited = editedLines(repo, task);
    const line = BILLING_V1.split('\n').indexOf('    return price - price * percent / 100') + 1;
    // A hunk that only adds a line before `return` is found by either line around the insertion.
    expect([...edited.get('shop/billing.py')!].sort((a: number, b: number) => a - b)).toEqual([line - 1, line]);
  });

  it('greps the identifiers the task names first, then its specific words, without commit jargon', () => {
    const terms = salientTerms(task.description);
    expect(terms[0]).toBe('apply_discount');
    expect(terms).toContain('percentage');
    expect(terms).not.toContain('fix');
    expect(terms.length).toBeLessThanOrEqual(8);
  });

  it('grep-and-read reaches the edited code, paying for every grep and every line read once', () => {
    const ws = new Workspace(repo, pool(), count);
    const windows = new Trace(ws, editedLines(repo, task));
    grepAndRead(ws, windows, task.description, 'windows');
    expect(windows.done()).toBe(true);
    expect(windows.read[0]).toBe('shop/billing.py');
    const whole = new Trace(ws, editedLines(repo, task));
    grepAndRead(ws, whole, task.description, 'whole');
    expect(whole.done()).toBe(true);
    // Reading the whole long file costs more than windows around the match.
    expect(whole.tokens).toBeGreaterThan(windows.tokens);
    const lines = ws.lineTokens('shop/billing.py').reduce((a: number, b: number) => a + b, 0);
    expect(whole.tokens).toBeGreaterThanOrEqual(lines + CALL_OVERHEAD);
    // Lines already seen are never paid for again.
    const again = whole.tokens;
    whole.readLines('shop/billing.py', whole.unseen('shop/billing.py'));
    expect(whole.tokens).toBe(again);
  });

  it('gives up at the budget when the task names nothing the code holds', () => {
    const ws = new Workspace(repo, pool(), count);
    const t = new Trace(ws, editedLines(repo, task));
    grepAndRead(ws, t, 'Quokka migration plan argon2', 'windows');
    expect(t.done()).toBe(false);
    expect(t.summary().recall).toBe(0);
  });

  it('cg-first reads what the bundle points to and needs fewer tokens than grep-and-read here', async () => {
    const ws = new Workspace(repo, pool(), count);
    const bundle = await buildContext(db, repo, { text: task.description }, { placeTexts: true });
    const places = bundle.files.flatMap((f) => f.places.map((p) => ({ path: f.path, start: p.line_range[0], end: p.line_range[1] })));
    const shown = new Map<string, number[]>();
    for (const f of bundle.files) {
      for (const p of f.places) {
        const n = (p.text ?? '').split('\n').length;
        shown.set(f.path, [...(shown.get(f.path) ?? []), ...Array.from({ length: n }, (_, k) => p.line_range[0] + k)]);
      }
    }
    const t = new Trace(ws, editedLines(repo, task));
    const via = cgFirst(ws, t, { tokens: bundle.tokens_used, shown, places }, task.description, 'windows');
    expect(t.done()).toBe(true);
    expect(via.reached).toBe(1);
    const g = new Trace(ws, editedLines(repo, task));
    grepAndRead(ws, g, task.description, 'windows');
    expect(t.tokens).toBeLessThan(g.tokens);
  });
});
