#!/usr/bin/env node
// What a language's extraction query costs to compile, and whether a rewrite of the query files
// changed what it matches (issue 20: a one-file `cg update` compiles the query of the file's language
// in full, every time).
//
//   compile   CPU ms of `new Query(...)` for this checkout's queries/ and, with --old, another folder
//             of query files (e.g. main's), alternating, median of --runs, with V8's baseline WebAssembly
//             compiler only (Liftoff), as a one-shot `cg update` compiles the grammars
//   matches   with --old and --files: every file of the list parsed once and matched by both queries;
//             the match streams (pattern, capture names, node ranges and types, in order) must be
//             identical, which makes the extraction identical
//
// Usage: node eval/query-compile.mjs --langs typescript,tsx,javascript,python [--old OTHER_CHECKOUT/queries]
//          [--files LIST_OF_PATHS] [--runs 7] [--label NAME] [--out eval/results/query-compile.json]
// Build first (npm run build): the languages come from dist/.
import v8 from 'node:v8';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './lib/metrics.mjs';
import { saveResult } from './lib/results.mjs';

v8.setFlagsFromString('--liftoff-only'); // before the first grammar is compiled
const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const langs = opt('--langs', 'typescript,tsx,javascript,python').split(',');
const old = opt('--old');
const runs = Number(opt('--runs', '7'));
const label = opt('--label', 'queries');
const out = opt('--out', path.join(here, 'results', 'query-compile.json'));

const { Query } = await import('web-tree-sitter');
const { loadLanguage, querySource } = await import(path.join(here, '..', 'dist', 'lang', 'loader.js'));
const { languageById, languageForFile } = await import(path.join(here, '..', 'dist', 'lang', 'registry.js'));
const { QUERIES_DIR } = await import(path.join(here, '..', 'dist', 'paths.js'));

/** The query source of a language from another queries/ folder: the same files, in the same order, as querySource. */
function sourceFrom(dir, spec) {
  return [spec.queryDir].flat().map((d) => fs.readdirSync(path.join(dir, d)).filter((n) => n.endsWith('.scm')).sort()
    .map((n) => `; ---- ${d}/${n}\n${fs.readFileSync(path.join(dir, d, n), 'utf8')}`).join('\n')).join('\n');
}

function cpuMs(f) {
  const t = process.cpuUsage();
  f();
  const u = process.cpuUsage(t);
  return (u.user + u.system) / 1000;
}

const files = opt('--files') ? fs.readFileSync(opt('--files'), 'utf8').split('\n').filter(Boolean) : [];
const result = { label, date: new Date().toISOString(), node: process.version, runs, cpus: os.cpus().length,
  loadavg: os.loadavg().map((x) => +x.toFixed(1)), note: 'CPU ms of one query compile (Liftoff only), medians; matches: ' +
  'files parsed and matched by both query folders, identical when the match streams are equal', languages: {} };
for (const id of langs) {
  const spec = languageById(id);
  const { parser } = await loadLanguage(spec);
  const language = parser.language;
  const sources = { head: querySource(spec), ...(old ? { old: sourceFrom(old, spec) } : {}) };
  const samples = Object.fromEntries(Object.keys(sources).map((k) => [k, []]));
  for (let r = 0; r < runs; r++) {
    for (const k of Object.keys(sources)) samples[k].push(cpuMs(() => new Query(language, sources[k]).delete()));
  }
  const entry = { compileCpuMs: Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, Math.round(median(xs))])) };
  if (old && files.length) {
    const head = new Query(language, sources.head);
    const before = new Query(language, sources.old);
    const stream = (q, root) => q.matches(root).map((m) => `${m.patternIndex}:${m.captures.map((c) =>
      `${c.name}@${c.node.startIndex}-${c.node.endIndex}:${c.node.type}`).join(',')}`).join('\n');
    let checked = 0;
    let matches = 0;
    const differing = [];
    for (const file of files) {
      if (languageForFile(file)?.id !== id) continue;
      let text;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch {
        continue;
      }
      const tree = parser.parse(text);
      const a = stream(before, tree.rootNode);
      if (a !== stream(head, tree.rootNode)) differing.push(file);
      matches += a ? a.split('\n').length : 0;
      checked++;
      tree.delete();
    }
    entry.matches = { files: checked, matches, differing: differing.length, firstDiffering: differing.slice(0, 10) };
  }
  result.languages[id] = entry;
  console.error(`${id}: ${JSON.stringify(entry)}`);
}
result.queriesDir = path.relative(path.join(here, '..'), QUERIES_DIR);
saveResult(out, label, result);
console.log(JSON.stringify(result.languages, null, 2));
