import { describe, expect, it } from 'vitest';
import { answerTokens, fitAnswer, keepCounts } from '../src/mcp/respond.js';
import type { FinishedAnswer, ToolAnswer } from '../src/mcp/registry.js';

// fitAnswer searches for the number of entries to keep; whatever path the search takes, the answer
// must keep the most entries that fit the budget whole (one more would not fit), in rank order.
describe('fitting a list answer to a budget', () => {
  const finish = (a: ToolAnswer): FinishedAnswer => {
    const structured = { ...a.body, freshness: { indexedCommit: '0123456789ab', generation: 3, ageSeconds: 12, pendingChanges: 0, stale: false } };
    return { structured, texts: [JSON.stringify(structured)] };
  };
  // Three lists of unlike entries, kept in priority order as get_blast_radius keeps them: long records,
  // then short file names, then records with a path each; sizes also vary within a list.
  const direct = Array.from({ length: 60 }, (_, i) => ({ name: `Console.method_${i}`, file: `rich/console_${i % 7}.py`, line: 10 + i * 13,
    confidence: Math.round((0.9 - i / 200) * 1000) / 1000, ...(i % 5 === 0 ? { relation: 'calls-overridden', note: 'x'.repeat(i) } : {}) }));
  const files = Array.from({ length: 40 }, (_, i) => `rich/f${i}.py`);
  const transitive = Array.from({ length: 220 }, (_, i) => ({ name: `Caller${i}.run`, file: `tests/test_${i}.py`, depth: 2 + (i % 3),
    path: Array.from({ length: 1 + (i % 4) }, (__, j) => `step_${j}`), confidence: 0.5 }));
  const lengths = [[direct.length], [files.length], [transitive.length]];
  const n = direct.length + files.length + transitive.length;
  const build = (k: number, tokensUsed: number): ToolAnswer => {
    const [[d], [f], [t]] = keepCounts(lengths, k);
    return { body: { target: { name: 'Console.print' }, direct: direct.slice(0, d), files: files.slice(0, f), transitive: transitive.slice(0, t),
      totals: { direct: direct.length, files: files.length, transitive: transitive.length }, ...(k < n ? { omitted: n - k, truncated: true } : {}), tokens_used: tokensUsed } };
  };

  it('keeps the most entries that fit whole, for budgets from nothing fitting to everything fitting', { timeout: 30_000 }, async () => {
    const sizes = new Map<number, number>();
    const size = async (k: number, used: number) => answerTokens(finish(build(k, used)));
    for (const budget of [50, ...Array.from({ length: 190 }, (_, i) => 100 + i * 53), 14_000, 50_000]) {
      const { kept, tokens, answer } = await fitAnswer(budget, n, build, finish);
      expect(tokens).toBe(await answerTokens(finish(answer)));
      if (kept > 0) expect(tokens, `budget ${budget}`).toBeLessThanOrEqual(budget);
      // One more entry, with the budget's own digits in tokens_used (as the search measures), does not fit.
      if (kept < n) expect(await size(kept + 1, budget), `budget ${budget}: ${kept + 1} entries would fit`).toBeGreaterThan(budget);
      sizes.set(budget, kept);
    }
    expect(sizes.get(50)).toBe(0);
    expect(sizes.get(50_000)).toBe(n);
    // Budgets that end inside each of the three lists.
    expect([...sizes.values()].some((k) => k > 0 && k < direct.length)).toBe(true);
    expect([...sizes.values()].some((k) => k > direct.length && k < direct.length + files.length)).toBe(true);
    expect([...sizes.values()].some((k) => k > direct.length + files.length && k < n)).toBe(true);
  });
});
