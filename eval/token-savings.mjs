#!/usr/bin/env node
// The PRD's token-saving evaluation (acceptance criteria 1-3, §13's scripts/eval_token_save.py): for every
// task, a scripted grep-and-read agent against the same agent given cg's answer first, both counted in
// tokens until they have seen the edited code of every gold file (eval/lib/agents.mjs; the rules are in
// eval/README.md, "Token savings"). Writes a markdown and a JSON report with a row per task, and, with
// --ground-truth, the tasks in the PRD's fixtures/ground_truth.jsonl format with the measured figures.
//
// Usage: node eval/token-savings.mjs [--tasks FILE[,FILE]] [--mirrors DIR] [--cache DIR] [--out PREFIX]
//          [--limit N] [--repo owner/name] [--prd20] [--ground-truth FILE] [--budget 3500] [--preset NAME]
//          [--baseline windows|whole] [--reuse-index] [--min-confidence X]
//   --min-confidence: `cg context`'s bundle cut (src/retrieve/context.ts, BUNDLE_MIN_CONFIDENCE by default).
//   --prd20: the PRD's 20 real tasks: Python only (its scope), four from each Python repository of the
//            task files (jinja, attrs, rich; click, sqlalchemy), spread over each repository's history.
//   --ground-truth: where to write the converted tasks (they quote commit messages: keep them out of the project).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkout } from './lib/checkout.mjs';
import { pool } from './lib/bm25.mjs';
import { median } from './lib/metrics.mjs';
import { CALL_OVERHEAD, GIVE_UP, READ_PAGE, WINDOW, GREP_LIMIT, MAX_TERMS, Trace, Workspace, cgFirst, editedLines, grepAndRead, salientTerms } from './lib/agents.mjs';
import { buildIndex } from '../dist/indexer/build.js';
import { openReader } from '../dist/store/db.js';
import { buildContext } from '../dist/retrieve/context.js';
import { tokenCounter } from '../dist/retrieve/tokens.js';
import { createServer } from '../dist/mcp/server.js';
import { renderContext } from '../dist/cli/commands/query-cmd.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const taskFiles = opt('--tasks', path.join(here, '..', '..', 'shared', 'eval', 'dev-tasks.jsonl')).split(',');
const mirrors = opt('--mirrors', '/work/.mirror');
const cache = opt('--cache', path.join(os.tmpdir(), 'cg-eval'));
const out = opt('--out', path.join(here, 'results', 'token-savings-dev'));
const limit = Number(opt('--limit', '0'));
const onlyRepo = opt('--repo', '');
const budget = Number(opt('--budget', '3500'));
const preset = opt('--preset', undefined);
const baselineMode = opt('--baseline', 'windows');
const groundTruth = opt('--ground-truth', '');
const minConfidence = opt('--min-confidence', undefined);

let tasks = taskFiles.flatMap((f) => fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)));
if (onlyRepo) tasks = tasks.filter((t) => t.repo === onlyRepo);
if (args.includes('--prd20')) tasks = prd20(tasks);
if (limit) tasks = tasks.slice(0, limit);

/** Four Python tasks of each Python repository, evenly spread over its tasks (which the miners order by date). */
function prd20(all) {
  const byRepo = new Map();
  for (const t of all.filter((x) => x.language === 'python')) byRepo.set(t.repo, [...(byRepo.get(t.repo) ?? []), t]);
  const picked = [];
  for (const list of byRepo.values()) {
    const sorted = [...list].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    for (let i = 0; i < 4 && i < sorted.length; i++) picked.push(sorted[Math.floor((i * sorted.length) / 4)]);
  }
  return picked.slice(0, 20);
}

const count = await tokenCounter();
const rows = [];
const prdTasks = [];

for (const [i, task] of tasks.entries()) {
  process.stderr.write(`\r${i + 1}/${tasks.length} ${task.task_id}          `);
  const row = { task: task.task_id, repo: task.repo, language: task.language, gold: task.source_files_edited.length };
  try {
    const dir = checkout(task, { mirrors, cache });
    if (!args.includes('--reuse-index') || !fs.existsSync(path.join(dir, '.codegraph', 'CURRENT'))) {
      fs.rmSync(path.join(dir, '.codegraph'), { recursive: true, force: true });
      await buildIndex(dir);
    }
    const ws = new Workspace(dir, pool(dir, { tests: false }), count);
    const edited = editedLines(dir, task);
    const touched = new Set(task.files_edited);

    const base = {};
    for (const mode of ['windows', 'whole']) {
      const t = new Trace(ws, edited);
      grepAndRead(ws, t, task.description, mode);
      base[mode] = { ...t.summary(), untouchedRead: share(t.read, touched) };
      if (args.includes('--steps')) console.error(`\n${task.task_id} grep ${mode}: gold ${[...edited.keys()]}\n  ${t.steps.join('\n  ')}`);
    }
    row.terms = salientTerms(task.description);
    row.grep = base[baselineMode];
    row.grepOther = base[baselineMode === 'windows' ? 'whole' : 'windows'];

    const db = openReader(dir);
    const server = createServer(dir, { toolsets: ['all'] });
    try {
      const q = { text: task.description, budget, ...(preset ? { preset } : {}) };
      const bundle = await buildContext(db, dir, q, { placeTexts: true, ...(minConfidence !== undefined ? { minConfidence: Number(minConfidence) } : {}) });
      const ctxAnswer = contextAnswer(bundle);
      const res = await server.call('codegraph_query', { query: task.description, token_budget: budget, ...(preset ? { preset } : {}) });
      const qAnswer = queryAnswer(res);
      for (const [name, answer] of [['context', ctxAnswer], ['query', qAnswer]]) {
        const t = new Trace(ws, edited);
        const viaAnswer = cgFirst(ws, t, answer, task.description, baselineMode);
        const files = [...new Set(answer.places.map((p) => p.path))];
        if (args.includes('--steps')) console.error(`\n${task.task_id} cg ${name}:\n  ${t.steps.join('\n  ')}`);
        row[name] = {
          ...t.summary(), untouchedRead: share(t.read, touched), answerTokens: answer.tokens, viaAnswer: viaAnswer.reached === edited.size,
          answerFiles: files.length, answerRecall: files.filter((f) => edited.has(f)).length / edited.size,
          untouched: files.length ? files.filter((f) => !touched.has(f)).length / files.length : null, status: answer.status,
        };
      }
    } finally {
      server.live.close();
      db.close();
    }
    row.saving = 1 - row.context.tokens / row.grep.tokens;
    row.savingQuery = 1 - row.query.tokens / row.grep.tokens;
    if (groundTruth) prdTasks.push(prdEntry(task, edited, row));
  } catch (err) {
    row.error = String(err?.stack ?? err);
  }
  rows.push(row);
}
process.stderr.write('\n');

function share(files, touched) {
  return files.length ? files.filter((f) => !touched.has(f)).length / files.length : null;
}

/** What `cg context` shows: its text, and per place the lines its source, first lines or signature cover. */
function contextAnswer(b) {
  const shown = new Map();
  const places = [];
  for (const f of b.files) {
    for (const p of f.places) {
      const [start, end] = p.line_range;
      places.push({ path: f.path, start, end });
      // Notes are not source: where the rest of a cut place is, how many lines a long one has more, where
      // another place of the file shows this one's lines.
      const lines = /^\(lines \d+-\d+: shown (above|below), in /.test(p.text ?? '') ? []
        : (p.text ?? '').split('\n').filter((l) => !/^… \(cut to fit/.test(l) && !/^… \(\d+ more lines\)$/.test(l));
      const n = Math.min(lines.length, end - start + 1);
      shown.set(f.path, [...(shown.get(f.path) ?? []), ...Array.from({ length: n }, (_, k) => start + k)]);
    }
  }
  return { tokens: count(renderContext(b)), shown, places, status: b.status };
}

/** What codegraph_query shows: the table (each place's first line as its excerpt) and the places to read. */
function queryAnswer(res) {
  const text = res.content.map((c) => c.text).join('\n');
  const body = res.structuredContent ?? {};
  const places = (body.files ?? []).map((e) => ({ path: e.path, start: e.line_range[0], end: e.line_range[1] }));
  const shown = new Map();
  for (const p of places) shown.set(p.path, [...(shown.get(p.path) ?? []), p.start]);
  return { tokens: count(text), shown, places, status: res.isError ? body.error_type ?? 'error' : body.status };
}

/** The task in the PRD's ground-truth format (§13), with this run's figures. */
function prdEntry(task, edited, row) {
  const ranges = (lines) => {
    const s = [...lines].sort((a, b) => a - b);
    const out = [];
    for (const l of s) {
      if (out.length && out[out.length - 1][1] === l - 1) out[out.length - 1][1] = l;
      else out.push([l, l]);
    }
    return out;
  };
  return {
    task_id: task.task_id, description: task.description, repo: `https://github.com/${task.repo}`,
    commit_before: task.commit_before, commit_after: task.commit_after, cursor_file: null,
    query_terms: row.terms, files_edited: task.files_edited,
    expected_bundle_should_contain: [...edited].flatMap(([p, lines]) => ranges(lines).map(([a, b]) => `${p}:${a}-${b}`)),
    baseline_tokens_sent: row.grep.tokens, expected_tokens_with_codegraph: row.context.tokens,
    expected_token_reduction_pct: Math.round(row.saving * 1000) / 10,
    agent_task_should_succeed: true,
    notes: `scripted agents (eval/token-savings.mjs): grep-and-read ${row.grep.reached ? 'reached' : 'did not reach'} the edited code, `
      + `cg-first ${row.context.reached ? 'reached' : 'did not reach'} it${row.context.viaAnswer ? ' from the answer alone' : ''}`,
  };
}

// ---- report --------------------------------------------------------------------------------------
const ok = rows.filter((r) => !r.error);
const pct = (x) => (x === null || x === undefined || Number.isNaN(x) ? '-' : `${(100 * x).toFixed(1)} %`);
const num = (x) => (x === null || x === undefined ? '-' : x.toFixed(3));
const avg = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
function summarize(rs) {
  const agent = (k) => ({
    medianTokens: median(rs.map((r) => r[k].tokens)),
    medianTokensReached: median(rs.filter((r) => r[k].reached).map((r) => r[k].tokens)),
    recall: avg(rs.map((r) => r[k].recall)),
    missAny: avg(rs.map((r) => (r[k].recall < 1 ? 1 : 0))),
    missAll: avg(rs.map((r) => (r[k].recall === 0 ? 1 : 0))),
    medianCalls: median(rs.map((r) => r[k].calls)),
    untouchedRead: avg(rs.map((r) => r[k].untouchedRead).filter((x) => x !== null)),
  });
  const s = { n: rs.length, grep: agent('grep'), grepOther: agent('grepOther'), context: agent('context'), query: agent('query') };
  for (const k of ['context', 'query']) {
    Object.assign(s[k], {
      medianSaving: median(rs.map((r) => 1 - r[k].tokens / r.grep.tokens)),
      savingOfMedians: 1 - s[k].medianTokens / s.grep.medianTokens,
      viaAnswer: avg(rs.map((r) => (r[k].viaAnswer ? 1 : 0))),
      answerRecall: avg(rs.map((r) => r[k].answerRecall)),
      untouched: avg(rs.map((r) => r[k].untouched).filter((x) => x !== null)),
      medianAnswerFiles: median(rs.map((r) => r[k].answerFiles)),
      medianAnswerTokens: median(rs.map((r) => r[k].answerTokens)),
      empty: rs.filter((r) => r[k].status !== 'ok' && r[k].status !== 'success').length,
    });
  }
  return s;
}
const summary = summarize(ok);
const byLanguage = Object.fromEntries([...new Set(ok.map((r) => r.language))].sort().map((l) => [l, summarize(ok.filter((r) => r.language === l))]));

const agentRow = (name, a, s) => `| ${name} | ${a.medianTokens} | ${a.medianTokensReached ?? '-'} | ${num(a.recall)} | ${pct(a.missAny)} | ${pct(a.missAll)} | ${a.medianCalls} | ${pct(a.untouchedRead)} | ${s ? pct(s) : '-'} |`;
const otherMode = baselineMode === 'windows' ? 'whole' : 'windows';
const md = [
  `# Token savings: ${taskFiles.map((f) => path.basename(f)).join(', ')}${args.includes('--prd20') ? ' (the PRD\'s 20 Python tasks)' : ''} (${ok.length} tasks)`,
  '',
  `Run ${new Date().toISOString()} on ${os.cpus()[0].model}, ${os.availableParallelism()} cores; cg ${process.env.npm_package_version ?? ''}, `
    + `preset ${preset ?? 'the default'}, budget ${budget} tokens (cl100k_base). Rules: eval/README.md, "Token savings". `
    + `Give-up budget ${GIVE_UP} tokens; ${CALL_OVERHEAD} tokens a call; windows of ±${WINDOW} lines; grep output cut at ${GREP_LIMIT} files; `
    + `Read pages of ${READ_PAGE} lines; at most ${MAX_TERMS} grep terms.`,
  '',
  '| agent | median tokens | median tokens (reached) | recall | missed a gold file | found no gold file | median calls | untouched share of files read | median saving |',
  '|---|---|---|---|---|---|---|---|---|',
  agentRow(`grep-and-read (${baselineMode}): the baseline`, summary.grep),
  agentRow(`grep-and-read (${otherMode})`, summary.grepOther),
  agentRow('cg context first', summary.context, summary.context.medianSaving),
  agentRow('codegraph_query first', summary.query, summary.query.medianSaving),
  '',
  '| cg answer | median tokens | median files | gold files in it (recall) | untouched share of its files | found everything from the first places | empty answers |',
  '|---|---|---|---|---|---|---|',
  ...['context', 'query'].map((k) => `| ${k === 'context' ? '`cg context`' : '`codegraph_query`'} | ${summary[k].medianAnswerTokens} | ${summary[k].medianAnswerFiles} | ${num(summary[k].answerRecall)} | ${pct(summary[k].untouched)} | ${pct(summary[k].viaAnswer)} | ${summary[k].empty} |`),
  '',
  '## By language',
  '',
  '| language | n | grep median tokens | grep recall | cg context median tokens | cg recall | median saving | answer recall | untouched share of the bundle |',
  '|---|---|---|---|---|---|---|---|---|',
  ...Object.entries(byLanguage).map(([l, s]) => `| ${l} | ${s.n} | ${s.grep.medianTokens} | ${num(s.grep.recall)} | ${s.context.medianTokens} | ${num(s.context.recall)} | ${pct(s.context.medianSaving)} | ${num(s.context.answerRecall)} | ${pct(s.context.untouched)} |`),
  '',
  '## Per task',
  '',
  'Tokens until every gold file\'s edited code was seen (a `*` marks an agent that gave up or ran out of leads before that).',
  '',
  `| task | language | gold | grep (${baselineMode}) | cg context first | saving | codegraph_query first | bundle files | untouched |`,
  '|---|---|---|---|---|---|---|---|---|',
  ...ok.map((r) => `| ${r.task} | ${r.language} | ${r.gold} | ${r.grep.tokens}${r.grep.reached ? '' : '*'} | ${r.context.tokens}${r.context.reached ? '' : '*'}${r.context.viaAnswer ? ' (answer)' : ''} | ${pct(r.saving)} | ${r.query.tokens}${r.query.reached ? '' : '*'} | ${r.context.answerFiles} | ${pct(r.context.untouched)} |`),
  '',
  ...rows.filter((r) => r.error).map((r) => `- failure: ${r.task}: ${r.error.split('\n')[0]}`),
];
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(`${out}.md`, `${md.join('\n')}\n`);
// The JSON report keeps figures only: the terms are words of third-party commit messages.
fs.writeFileSync(`${out}.json`, `${JSON.stringify({ summary, byLanguage, rows: rows.map(({ terms, ...r }) => r) }, null, 1)}\n`);
if (groundTruth) {
  fs.mkdirSync(path.dirname(groundTruth), { recursive: true });
  fs.writeFileSync(groundTruth, prdTasks.map((t) => JSON.stringify(t)).join('\n') + '\n');
}
console.log(md.slice(0, 16).join('\n'));
