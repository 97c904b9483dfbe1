// Two scripted agents that look for the code a task edits, and what each spends in tokens until it has
// seen the edited code of every gold file (eval/README.md, "Token savings", states these rules so they
// can be disputed):
//
//   grep-and-read  the steps an agent takes without cg: grep the task's salient words, rank the files by
//                  what matched, then read them in that order (whole files, or windows around the matches
//                  as a grep with context lines or Read with offset/limit shows them);
//   cg-first       the same agent given cg's answer first (`cg context`'s bundle, or codegraph_query's
//                  table): it reads the places the answer points to, then the rest of the answer's files,
//                  then falls back to grep-and-read for whatever it has still not found.
//
// What counts: the text every tool call returns (cl100k_base tokens; file lines as Claude Code's Read
// shows them, `     n\t<line>`), plus CALL_OVERHEAD for each call (the call itself and the result's
// framing). What the agent writes is left out: it is the same for both. The agent stops the moment it
// has seen an edited line of every gold file (it is assumed to recognise the edit when it sees it; it
// knows nothing else about the gold), or gives up when GIVE_UP tokens are spent.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

export const CALL_OVERHEAD = 20;
export const GIVE_UP = 50_000;
/** Lines shown either side of a matching line (a grep's -C, or a Read window). */
export const WINDOW = 30;
/** Claude Code's Read returns at most this many lines a call. */
export const READ_PAGE = 2000;
/** Lines of one grep's output shown (as a head_limit would): more matching files are not listed. */
export const GREP_LIMIT = 100;

// ---- the words an agent would grep: cg's own suggestion when nothing matches (src/retrieve/grep-terms.ts)
export { MAX_TERMS, salientTerms } from '../../dist/retrieve/grep-terms.js';
import { salientTerms } from '../../dist/retrieve/grep-terms.js';

// ---- the repository as the agent's tools see it -------------------------------------------------

/** Files, lines and token counts of one checkout, read once and shared by the agents. */
export class Workspace {
  constructor(root, files, count) {
    this.root = root;
    this.files = files;
    this.count = count;
    this.cache = new Map();
    this.grepCache = new Map();
  }

  file(p) {
    let f = this.cache.get(p);
    if (!f) {
      let text = '';
      try {
        text = fs.readFileSync(path.join(this.root, p), 'utf8');
      } catch {
        // gone or unreadable: an empty file to the agent
      }
      const lines = text.split('\n');
      if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
      f = { lines, lower: lines.map((l) => l.toLowerCase()), tokens: null };
      this.cache.set(p, f);
    }
    return f;
  }

  lineCount(p) {
    return this.file(p).lines.length;
  }

  /** Tokens of each line as Read shows it (`     n\t<line>`; Read cuts lines at 2,000 characters). */
  lineTokens(p) {
    const f = this.file(p);
    f.tokens ??= f.lines.map((l, i) => this.count(`${String(i + 1).padStart(6)}\t${l.slice(0, 2000)}\n`));
    return f.tokens;
  }

  /** Files of the pool whose lines contain `term` (case-insensitive), with the number of such lines. */
  grepCount(term) {
    const key = term.toLowerCase();
    let hits = this.grepCache.get(key);
    if (!hits) {
      hits = new Map();
      for (const p of this.files) {
        let n = 0;
        for (const l of this.file(p).lower) if (l.includes(key)) n++;
        if (n) hits.set(p, n);
      }
      this.grepCache.set(key, hits);
    }
    return hits;
  }

  /** 1-based numbers of the lines of `p` that contain any of the terms. */
  matchingLines(p, terms) {
    const keys = terms.map((t) => t.toLowerCase());
    const out = [];
    this.file(p).lower.forEach((l, i) => {
      if (keys.some((k) => l.includes(k))) out.push(i + 1);
    });
    return out;
  }
}

// ---- what an agent has spent and seen -----------------------------------------------------------

/**
 * The edited lines of each gold file, as line numbers in the file at commit_before: the old side of
 * every hunk of `git diff -U0`; a hunk that only adds lines is found by either line around the insertion.
 */
export function editedLines(dir, task) {
  const gold = task.source_files_edited;
  const out = new Map(gold.map((g) => [g, new Set()]));
  if (task.edited_lines) {
    for (const [p, ranges] of Object.entries(task.edited_lines)) for (const [a, b] of ranges) for (let i = a; i <= b; i++) out.get(p)?.add(i);
    return out;
  }
  const diff = execFileSync('git', ['-C', dir, 'diff', '-U0', '--no-color', '--no-ext-diff', '-M', task.commit_before, task.commit_after, '--', ...gold],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  let file = null;
  for (const line of diff.split('\n')) {
    if (line.startsWith('--- ')) {
      file = line === '--- /dev/null' ? null : line.slice(6);
      continue;
    }
    const m = /^@@ -(\d+)(?:,(\d+))? \+/.exec(line);
    if (!m || !file || !out.has(file)) continue;
    const start = Number(m[1]);
    const n = m[2] === undefined ? 1 : Number(m[2]);
    if (n > 0) for (let i = start; i < start + n; i++) out.get(file).add(i);
    else {
      out.get(file).add(Math.max(1, start));
      out.get(file).add(start + 1);
    }
  }
  return out;
}

/** One agent's run: tokens and calls spent, lines seen, and when each gold file was reached. */
export class Trace {
  constructor(ws, edited) {
    this.ws = ws;
    this.edited = edited;
    this.tokens = 0;
    this.calls = 0;
    this.seen = new Map();
    this.reached = new Map();
    /** Files whose content the agent read (beyond a grep's list of names), in order. */
    this.read = [];
    /** Each call: what it was and what it cost, for a reader who wants to check a run (--steps). */
    this.steps = [];
  }

  done() {
    return this.reached.size === this.edited.size;
  }

  over() {
    return this.tokens >= GIVE_UP;
  }

  /** A tool call that returned `tokens` tokens of text. */
  call(tokens, what = '') {
    this.calls++;
    this.tokens += tokens + CALL_OVERHEAD;
    this.steps.push(`${what} ${tokens + CALL_OVERHEAD}`);
  }

  /** Lines of `p` the agent now has in front of it. */
  see(p, lines) {
    let s = this.seen.get(p);
    if (!s) {
      s = new Set();
      this.seen.set(p, s);
    }
    if (lines.length && !this.read.includes(p)) this.read.push(p);
    for (const l of lines) s.add(l);
    const gold = this.edited.get(p);
    if (gold && !this.reached.has(p) && (gold.size === 0 ? lines.length > 0 : lines.some((l) => gold.has(l)))) this.reached.set(p, this.tokens);
  }

  unseen(p, from = 1, to = Infinity) {
    const s = this.seen.get(p);
    const out = [];
    for (let i = Math.max(1, from); i <= Math.min(to, this.ws.lineCount(p)); i++) if (!s?.has(i)) out.push(i);
    return out;
  }

  /** Read lines of `p` (one call per contiguous run, at most READ_PAGE lines a call); already seen lines are not asked for. */
  readLines(p, lines) {
    const tokens = this.ws.lineTokens(p);
    let run = [];
    const flush = () => {
      if (!run.length) return;
      this.call(run.reduce((sum, l) => sum + tokens[l - 1], 0), `read ${p}:${run[0]}-${run[run.length - 1]}`);
      this.see(p, run);
      run = [];
    };
    for (const l of lines) {
      if (run.length && (l !== run[run.length - 1] + 1 || run.length >= READ_PAGE)) flush();
      run.push(l);
    }
    flush();
  }

  summary() {
    const gold = [...this.edited.keys()];
    return {
      tokens: this.tokens, calls: this.calls, reached: this.done(), recall: gold.length ? this.reached.size / gold.length : 1,
      filesRead: this.read.length, untouchedRead: null,
    };
  }
}

// ---- grep-and-read -------------------------------------------------------------------------------

/**
 * The files the terms matched, best first: Σ over matching terms of idf × (1 + ln lines matched); and
 * each term's number of matching files, as the greps' outputs told the agent.
 */
export function rankByGrep(ws, trace, terms) {
  const N = ws.files.length;
  const score = new Map();
  const df = new Map();
  for (const t of terms) {
    if (trace.over()) break;
    const hits = ws.grepCount(t);
    // The call's output: `path:count` lines, cut at GREP_LIMIT (the agent sees only those).
    const shown = [...hits].sort((a, b) => (a[0] < b[0] ? -1 : 1)).slice(0, GREP_LIMIT);
    const text = shown.map(([p, n]) => `${p}:${n}`).join('\n') + (hits.size > GREP_LIMIT ? `\n(${hits.size - GREP_LIMIT} more files not shown)` : '');
    trace.call(ws.count(text || 'No matches found'), `grep ${t} (${hits.size} files)`);
    df.set(t, hits.size);
    const idf = Math.log(1 + N / Math.max(1, hits.size));
    for (const [p, n] of shown) score.set(p, (score.get(p) ?? 0) + idf * (1 + Math.log(n)));
  }
  return { ranked: [...score].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([p]) => p), df };
}

/**
 * What the agent looks at first in a file: windows of ±WINDOW lines around the matches of the file's
 * FOCUS_TERMS most specific terms (fewest matching files), at most FOCUS_MATCHES matches, merged.
 */
export const FOCUS_TERMS = 2;
export const FOCUS_MATCHES = 10;

function windowsOf(ws, p, terms, df) {
  const n = ws.lineCount(p);
  const mine = terms.filter((t) => ws.grepCount(t).has(p)).sort((a, b) => df.get(a) - df.get(b)).slice(0, FOCUS_TERMS);
  const lines = new Set();
  for (const m of ws.matchingLines(p, mine).slice(0, FOCUS_MATCHES)) for (let i = Math.max(1, m - WINDOW); i <= Math.min(n, m + WINDOW); i++) lines.add(i);
  return [...lines].sort((a, b) => a - b);
}

/** Files an agent takes in a round: what it looks at first in each, then the rest of each of them. */
export const ROUND = 5;

/** Sees the lines of `p` that grep's context lines would show (one call for all of a file's windows). */
function grepWindows(ws, trace, p, lines) {
  const fresh = lines.filter((l) => !trace.seen.get(p)?.has(l));
  if (!fresh.length) return;
  const tokens = ws.lineTokens(p);
  trace.call(fresh.reduce((sum, l) => sum + tokens[l - 1], 0), `grep -C${WINDOW} ${p} (${fresh.length} lines)`);
  trace.see(p, fresh);
}

/**
 * Files in rounds of ROUND: for each file of the round what `look(p)` says to look at first (reads of
 * line ranges, or a grep's windows), then the rest of each file of the round, in order.
 */
function readInRounds(ws, trace, files, look) {
  const stop = () => trace.done() || trace.over();
  for (let r = 0; r < files.length && !stop(); r += ROUND) {
    const round = files.slice(r, r + ROUND);
    for (const p of round) {
      if (stop()) return;
      look(p);
    }
    for (const p of round) {
      if (stop()) return;
      trace.readLines(p, trace.unseen(p));
    }
  }
}

/**
 * The grep-and-read agent. mode 'windows': the ranked files in rounds, each first seen through windows
 * around its most specific matches (a grep with context lines), then read whole. mode 'whole': each
 * ranked file read whole, in order.
 */
export function grepAndRead(ws, trace, description, mode) {
  const terms = salientTerms(description);
  const { ranked, df } = rankByGrep(ws, trace, terms);
  if (mode === 'whole') {
    for (const p of ranked) {
      if (trace.done() || trace.over()) break;
      trace.readLines(p, trace.unseen(p));
    }
  } else {
    readInRounds(ws, trace, ranked, (p) => grepWindows(ws, trace, p, windowsOf(ws, p, terms, df)));
  }
  return terms;
}

// ---- cg first ------------------------------------------------------------------------------------

/**
 * The cg-first agent: the same agent, with cg's answer before anything else (`answer`: its text's
 * tokens, the lines it showed of each file, its places in order). It reads the places of the answer's
 * first ROUND files; if that did not find everything, it greps the task's terms as grep-and-read does,
 * and goes on in rounds through the answer's files and then the grep's other files: in each file the
 * places cg gave (if any), then the windows around the most specific matches, then the rest.
 * Returns how far the answer's first places got.
 */
export function cgFirst(ws, trace, answer, description, fallbackMode) {
  trace.call(answer.tokens, 'cg answer');
  for (const [p, lines] of answer.shown) trace.see(p, lines);
  const stop = () => trace.done() || trace.over();
  const files = [...new Set(answer.places.map((pl) => pl.path))].filter((p) => fs.existsSync(path.join(ws.root, p)));
  const readPlaces = (p) => {
    for (const pl of answer.places) if (pl.path === p && !stop()) trace.readLines(p, trace.unseen(p, pl.start, pl.end));
  };
  for (const p of files.slice(0, ROUND)) readPlaces(p);
  const viaAnswer = { reached: trace.reached.size, tokens: trace.tokens };
  if (stop()) return viaAnswer;
  const terms = salientTerms(description);
  const { ranked, df } = rankByGrep(ws, trace, terms);
  const order = [...files, ...ranked.filter((p) => !files.includes(p))];
  readInRounds(ws, trace, order, (p) => {
    if (files.indexOf(p) >= ROUND) readPlaces(p);
    if (fallbackMode === 'windows' && !stop()) grepWindows(ws, trace, p, windowsOf(ws, p, terms, df));
  });
  return viaAnswer;
}
