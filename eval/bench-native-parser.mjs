#!/usr/bin/env node
// Native tree-sitter against web-tree-sitter, on cg's own extraction queries (issue 20: "keep
// web-tree-sitter; if native grammars would be decisively faster, measure and bring the figures").
//
// For each repository and each of its languages that has a native grammar on npm, the files cg would
// index are read, parsed and matched by the language's whole extraction query (querySource: the same
// .scm files cg compiles), once with web-tree-sitter and the grammar .wasm cg ships, once with the
// `tree-sitter` Node addon and the same grammar version's native build. Each side runs in a fresh
// child process (as a build worker starts), the sides alternate, and the medians of --runs rounds are
// reported per phase: grammar load, query compilation, the first file (parse and match of the repository's
// median-sized file of the language, as a one-file `cg update` does after loading), then parse and query
// matching of all the others. The web side runs twice: with V8's defaults, as a build's workers do, and
// with its baseline WebAssembly compiler only (`web-liftoff`), as a one-file `cg update` does
// (baselineCompileOnly in src/lang/loader.ts). The match streams
// (pattern, capture name and byte range of every capture, in order) are hashed on both sides: equal
// hashes mean both sides hand the extractor the same input, so the times compare the same work.
//
// The native side is not a dependency of cg: install it outside the repository, e.g.
//   mkdir -p /tmp/native && cd /tmp/native && npm init -y >/dev/null && npm install --legacy-peer-deps \
//     tree-sitter@0.25.0 tree-sitter-python@0.25.0 tree-sitter-go@0.25.0 tree-sitter-javascript@0.25.0 tree-sitter-typescript@0.23.2
// (the versions @repomix/tree-sitter-wasms 0.1.17 builds its .wasm grammars from).
//
// Usage: npm run build && node eval/bench-native-parser.mjs --native /tmp/native --repo DIR[,DIR...] [--runs 3] [--label NAME]
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { option } from './lib/args.mjs';
import { median } from './lib/metrics.mjs';
import { saveResult } from './lib/results.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const nativeDir = option(argv, '--native');
const dist = path.join(here, '..', 'dist');

/** cg language id → the npm grammar package (and export) built from the same grammar version as cg's .wasm. */
const NATIVE_GRAMMARS = {
  python: ['tree-sitter-python'],
  go: ['tree-sitter-go'],
  javascript: ['tree-sitter-javascript'],
  typescript: ['tree-sitter-typescript', 'typescript'],
  tsx: ['tree-sitter-typescript', 'tsx'],
};

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** One side, one language, in this (child) process: the phases' CPU ms and the match stream's hash. */
async function child(side, lang, root, listFile) {
  const { querySource, grammarPath } = await import(path.join(dist, 'lang', 'loader.js'));
  const { languageById } = await import(path.join(dist, 'lang', 'registry.js'));
  const spec = languageById(lang);
  const files = fs.readFileSync(listFile, 'utf8').split('\n').filter(Boolean);
  const texts = files.map((f) => fs.readFileSync(path.join(root, f), 'utf8'));
  const source = querySource(spec);
  const t = {};
  let c0 = cpu();
  let parser;
  let language;
  let Query;
  if (side === 'web-liftoff') (await import('node:v8')).setFlagsFromString('--liftoff-only');
  if (side.startsWith('web')) {
    const ts = await import('web-tree-sitter');
    await ts.Parser.init();
    language = await ts.Language.load(fs.readFileSync(grammarPath(spec)));
    parser = new ts.Parser();
    parser.setLanguage(language);
    Query = ts.Query;
  } else {
    const req = createRequire(path.join(path.resolve(nativeDir), 'package.json'));
    const Parser = req('tree-sitter');
    const [pkg, key] = NATIVE_GRAMMARS[lang];
    language = key ? req(pkg)[key] : req(pkg);
    parser = new Parser();
    parser.setLanguage(language);
    Query = Parser.Query;
  }
  t.load = cpu() - c0;
  c0 = cpu();
  const query = new Query(language, source);
  t.compile = cpu() - c0;
  const hash = crypto.createHash('sha256');
  let matches = 0;
  let captures = 0;
  const matchTree = (tree) => {
    for (const m of query.matches(tree.rootNode)) {
      matches++;
      for (const c of m.captures) {
        captures++;
        hash.update(`${m.pattern ?? m.patternIndex}:${c.name}:${c.node.startIndex}-${c.node.endIndex};`);
      }
    }
  };
  // The first file: the median-sized one (list order is by size: see the parent), parsed and matched alone.
  const first = Math.floor(texts.length / 2);
  c0 = cpu();
  const firstTree = parser.parse(texts[first]);
  matchTree(firstTree);
  t.first = cpu() - c0;
  const rest = texts.filter((_, i) => i !== first);
  c0 = cpu();
  const trees = rest.map((text) => parser.parse(text));
  t.parse = cpu() - c0;
  c0 = cpu();
  for (const tree of trees) matchTree(tree);
  t.match = cpu() - c0;
  if (side.startsWith('web')) for (const tree of [firstTree, ...trees]) tree.delete();
  const bytes = texts.reduce((n, s) => n + Buffer.byteLength(s), 0);
  process.stdout.write(JSON.stringify({ ...t, files: files.length, bytes, matches, captures, digest: hash.digest('hex').slice(0, 16) }));
}

if (argv[0] === '--child') {
  await child(argv[1], argv[2], argv[3], argv[4]);
  process.exit(0);
}

const repos = option(argv, '--repo', '').split(',').filter(Boolean);
const runs = Number(option(argv, '--runs', '3'));
const label = option(argv, '--label', repos.map((r) => path.basename(r)).join('+'));
const out = option(argv, '--out', path.join(here, 'results', 'bench-native-parser.json'));
if (!nativeDir || !repos.length) {
  console.error('Usage: node eval/bench-native-parser.mjs --native DIR --repo DIR[,DIR...] [--runs 3] [--label NAME]');
  process.exit(2);
}
try {
  createRequire(path.join(path.resolve(nativeDir), 'package.json')).resolve('tree-sitter');
} catch {
  console.error(`No tree-sitter addon under ${nativeDir}/node_modules: install it there first (see this script's header).`);
  process.exit(2);
}

const { walkRepo } = await import(path.join(dist, 'repo', 'walk.js'));
const { walkOptions } = await import(path.join(dist, 'indexer', 'build.js'));
const { DEFAULT_CONFIG } = await import(path.join(dist, 'config', 'config.js'));
const { languageForFile } = await import(path.join(dist, 'lang', 'registry.js'));
const scratch = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'cg-native-'));

const result = { date: new Date().toISOString(), runs, repos: {} };
for (const repo of repos) {
  const root = path.resolve(repo);
  const byLang = new Map();
  for (const f of walkRepo(root, walkOptions(DEFAULT_CONFIG)).files.map((x) => x.path)) {
    const id = languageForFile(f)?.id;
    if (!id || !NATIVE_GRAMMARS[id]) continue;
    if (!byLang.has(id)) byLang.set(id, []);
    byLang.get(id).push(f);
  }
  result.repos[path.basename(root)] = {};
  for (const [lang, files] of byLang) {
    const list = path.join(scratch, `${path.basename(root)}-${lang}.txt`);
    const size = (f) => fs.statSync(path.join(root, f)).size;
    fs.writeFileSync(list, files.map((f) => [size(f), f]).sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1)).map((x) => x[1]).join('\n'));
    const rounds = { web: [], 'web-liftoff': [], native: [] };
    const order = ['web', 'web-liftoff', 'native'];
    for (let r = 0; r < runs; r++) {
      for (const side of r % 2 ? [...order].reverse() : order) {
        const res = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', side, lang, root, list, '--native', nativeDir],
          { encoding: 'utf8', maxBuffer: 1 << 26 });
        if (res.status !== 0) throw new Error(`${side} ${lang} failed: ${res.stderr}`);
        rounds[side].push(JSON.parse(res.stdout));
      }
    }
    const summary = {};
    for (const side of order) {
      const rs = rounds[side];
      summary[side] = Object.fromEntries(['load', 'compile', 'first', 'parse', 'match'].map((k) => [k, Math.round(median(rs.map((x) => x[k])))]));
      summary[side].total = summary[side].load + summary[side].compile + summary[side].first + summary[side].parse + summary[side].match;
      summary[side].oneFile = summary[side].load + summary[side].compile + summary[side].first;
      summary[side].digest = rs[0].digest;
      summary[side].captures = rs[0].captures;
    }
    const { files: n, bytes } = rounds.web[0];
    const sameMatches = order.every((side) => summary[side].digest === summary.web.digest);
    const ratio = (k) => Math.round((summary.native[k] / Math.max(1, summary.web[k])) * 100) / 100;
    result.repos[path.basename(root)][lang] = {
      files: n, bytes, sameMatches, ...summary,
      nativeOverWeb: {
        compile: ratio('compile'), parse: ratio('parse'), match: ratio('match'), total: ratio('total'),
        oneFileOverLiftoff: Math.round((summary.native.oneFile / Math.max(1, summary['web-liftoff'].oneFile)) * 100) / 100,
      },
    };
    console.log(`${path.basename(root)} ${lang} (${n} files, ${(bytes / 1e6).toFixed(1)} MB) same matches: ${sameMatches ? 'yes' : 'NO'}`);
    console.log(`  CPU ms        load  compile  first  parse  match  total`);
    for (const side of order) {
      const s = summary[side];
      console.log(`  ${side.padEnd(11)} ${[s.load, s.compile, s.first, s.parse, s.match, s.total].map((v, i) => String(v).padStart([5, 7, 6, 6, 6, 6][i])).join(' ')}`);
    }
    console.log(`  native/web: compile ×${ratio('compile')}, parse ×${ratio('parse')}, match ×${ratio('match')}, all ×${ratio('total')}; `
      + `one file (load+compile+first) ×${result.repos[path.basename(root)][lang].nativeOverWeb.oneFileOverLiftoff} of web-liftoff's`);
  }
}
fs.rmSync(scratch, { recursive: true, force: true });
saveResult(out, label, result);
console.log(`written: ${path.relative(process.cwd(), out)} [${label}]`);
