import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Freshness } from '../store/freshness.js';
import { stretchCounter, tokenCounter } from '../retrieve/tokens.js';
import { plural } from '../words.js';
import { errorBody, makeError, type ToolError } from './errors.js';
import type { FinishedAnswer, ToolAnswer } from './registry.js';

/**
 * What the agent receives: the answer, freshness on every one (promise 4), errors in the PRD §6 shape,
 * and the fitting of a whole response (wrapper included) into a token budget.
 */
export interface McpFreshness {
  /** The indexed commit, abbreviated as git does (12 characters). */
  indexedCommit: string | null;
  /** Only when HEAD has moved past the indexed commit. */
  headCommit?: string | null;
  generation: number;
  ageSeconds: number;
  pendingChanges: number;
  stale: boolean;
  hint?: string;
}

export function isStale(f: Freshness): boolean {
  return f.behindHead || f.pendingChanges > 0;
}

export function staleReason(f: Freshness): string {
  const parts: string[] = [];
  if (f.behindHead) parts.push(`indexed ${f.indexedCommit?.slice(0, 10) ?? 'no commit'}, HEAD is ${f.headCommit?.slice(0, 10) ?? 'unknown'}`);
  if (f.pendingChanges) parts.push(`${plural(f.pendingChanges, 'change-log record')} not applied`);
  return parts.join('; ');
}

const short = (c: string | null) => (c ? c.slice(0, 12) : null);

/** Compact: answers are counted against the agent's token budget, freshness included. */
export function mcpFreshness(f: Freshness): McpFreshness {
  const base = { indexedCommit: short(f.indexedCommit), generation: f.generation, ageSeconds: f.ageSeconds, pendingChanges: f.pendingChanges };
  if (!isStale(f)) return { ...base, stale: false };
  return { ...base, ...(f.behindHead ? { headCommit: short(f.headCommit) } : {}), stale: true,
    hint: `The index is behind (${staleReason(f)}): confirm with read_file; \`cg update\` catches up.` };
}

/** The freshness as one line, for answers whose text is not the JSON body (tables, trees, the specs' bare arrays). */
export function freshnessNote(f: McpFreshness): string {
  const age = f.ageSeconds < 120 ? `${f.ageSeconds} s` : f.ageSeconds < 7200 ? `${Math.round(f.ageSeconds / 60)} min` : `${Math.round(f.ageSeconds / 3600)} h`;
  return `index: ${f.indexedCommit ?? 'no commit'}, generation ${f.generation}, ${age} old, ${f.pendingChanges} pending${f.hint ? `. ${f.hint}` : ''}`;
}

export function finish(answer: ToolAnswer, f: Freshness): FinishedAnswer {
  const fresh = mcpFreshness(f);
  const structured = { ...answer.body, freshness: fresh };
  if (answer.text !== undefined) return { structured, texts: [answer.text, freshnessNote(fresh)] };
  const json = JSON.stringify(structured);
  return { structured, texts: [json], json };
}

export function toResult(done: FinishedAnswer, isError = false): CallToolResult {
  return { ...(isError ? { isError: true } : {}), content: done.texts.map((text) => ({ type: 'text' as const, text })), structuredContent: done.structured };
}

export function failure(e: ToolError, f?: Freshness, partial: unknown[] = []): CallToolResult {
  const body = { ...errorBody(e, partial), ...(f ? { freshness: mcpFreshness(f) } : {}) };
  return toResult({ structured: body, texts: [JSON.stringify(body)] }, true);
}

/** A name or file the index does not know while the index is behind is most likely new: say so. */
export function staleAware(e: ToolError, f: Freshness): ToolError {
  if (e.code !== 'not_found' || !isStale(f)) return e;
  return makeError('index_stale', `${e.message}; the index is behind (${staleReason(f)}), so it may be new`,
    'Use read_file or grep for it now.', e.details);
}

/**
 * Tokens of what the agent reads: a client shows the model the text content or the structured content,
 * so the larger counts. `count` is the shared tokenizer's counter unless the caller brings its own.
 */
export async function answerTokens(done: FinishedAnswer, count?: (text: string) => number): Promise<number> {
  count ??= await tokenCounter();
  const json = done.json ?? JSON.stringify(done.structured);
  const text = done.texts.join('\n');
  // A JSON answer's text is its structured content: counted once.
  return text === json ? count(json) : Math.max(count(text), count(json));
}

/**
 * The largest answer that fits `budget` tokens whole, wrapper included. `build(k, tokensUsed)` makes
 * the answer that keeps the first k of `n` entries in rank order (so a lower-ranked entry is never
 * kept while a better one is left out); during the search `tokensUsed` is the budget itself, whose
 * digits are never fewer than the final count's, so the count only falls when the real figure goes in.
 * The answer's size is assumed to grow with k (each entry adds to it).
 */
export async function fitAnswer(budget: number, n: number, build: (k: number, tokensUsed: number) => ToolAnswer,
  finishAnswer: (a: ToolAnswer) => FinishedAnswer): Promise<{ answer: ToolAnswer; kept: number; tokens: number }> {
  const memo = new Map<number, number>();
  // The answers measured share most of their entries: each entry is counted once (stretchCounter).
  const count = stretchCounter(await tokenCounter());
  const measure = async (k: number) => {
    if (!memo.has(k)) memo.set(k, await answerTokens(finishAnswer(build(k, budget)), count));
    return memo.get(k)!;
  };
  const fits = async (k: number) => (await measure(k)) <= budget;
  let lo = 0;
  let hi = n;
  if (n <= 16) {
    // A short list is usually whole: try that first, then halve.
    if (await fits(n)) lo = n;
    else hi = n - 1;
  } else {
    // A long list (a hub symbol's hundreds of callers) is never rendered whole unless its first few
    // entries say it may fit. The sizes measured so far say about how many fit (the line through the
    // two latest measures: entries of a later list can be shorter or longer); each guess is checked and
    // narrows the bounds, and after two guesses in a row that did not halve them the bounds are halved,
    // so the search takes a few measures where the entries are alike and not many more than bisection
    // where they are not.
    const probe = Math.min(8, n);
    let prev = { k: 0, tokens: await measure(0) };
    let last = { k: probe, tokens: await measure(probe) };
    if (last.tokens <= budget) lo = probe;
    else hi = probe - 1;
    const check = async (k: number) => {
      const tokens = await measure(k);
      if (tokens <= budget) lo = k;
      else hi = k - 1;
      prev = last;
      last = { k, tokens };
    };
    for (let slow = 0; lo < hi;) {
      const width = hi - lo;
      const per = Math.max(1, (last.tokens - prev.tokens) / (last.k - prev.k));
      await check(slow >= 2 ? Math.ceil((lo + hi) / 2) : Math.min(hi, Math.max(lo + 1, last.k + Math.floor((budget - last.tokens) / per))));
      slow = hi - lo > width / 2 ? slow + 1 : 0;
    }
  }
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (await fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  // The figure reported is the count of the answer that carries it (or, in the rare case that writing
  // it changes the count again, the upper bound measured with the budget in its place).
  const probeTokens = await measure(lo);
  let answer = build(lo, probeTokens);
  let tokens = await answerTokens(finishAnswer(answer), count);
  if (tokens !== probeTokens) {
    const again = build(lo, tokens);
    if ((await answerTokens(finishAnswer(again), count)) === tokens) answer = again;
  }
  return { answer, kept: lo, tokens };
}

/**
 * How many entries of each list to keep for k entries in all: groups in priority order (a later
 * group only once every earlier one is whole), lists within a group in turns, so that each list keeps
 * a prefix of its own ranking.
 */
export function keepCounts(groups: number[][], k: number): number[][] {
  const out = groups.map((g) => g.map(() => 0));
  let left = k;
  for (let gi = 0; gi < groups.length && left > 0; gi++) {
    for (let more = true; more && left > 0;) {
      more = false;
      for (let li = 0; li < groups[gi].length && left > 0; li++) {
        if (out[gi][li] < groups[gi][li]) {
          out[gi][li]++;
          left--;
          more = true;
        }
      }
    }
  }
  return out;
}
