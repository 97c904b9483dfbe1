#!/usr/bin/env node
// False positives of the secret rules on real code: every file cg would index in each corpus is
// scrubbed as `cg index` scrubs it (src/secrets/redact.ts, empty allowlist), and the files and lines
// with a finding are counted, per rule. Findings are recorded by path, line and rule only (no text
// of the corpus is written); --show prints each finding's line to the terminal for review.
//
//   npm run build
//   node eval/secrets-fp.mjs --corpus django-deb=/usr/lib/python3/dist-packages/django \
//     --corpus go-std=/usr/share/go-1.19/src --out eval/results/secrets-fp.json [--show]
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DEFAULT_CONFIG } from '../dist/config/config.js';
import { walkOptions } from '../dist/indexer/build.js';
import { walkRepo } from '../dist/repo/walk.js';
import { minifiedReason, isBinary } from '../dist/extract/filters.js';
import { scrubText } from '../dist/secrets/redact.js';
import { Allowlist } from '../dist/secrets/allowlist.js';
import { ruleSet } from '../dist/secrets/rules.js';

const args = process.argv.slice(2);
const corpora = [];
let out = null;
let show = false;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--corpus') {
    const [name, dir] = args[++i].split('=');
    corpora.push({ name, dir: path.resolve(dir) });
  } else if (args[i] === '--out') out = args[++i];
  else if (args[i] === '--show') show = true;
  else {
    console.error(`unknown argument ${args[i]}`);
    process.exit(2);
  }
}
if (!corpora.length) {
  console.error('usage: node eval/secrets-fp.mjs --corpus name=dir [--corpus …] [--out file.json] [--show]');
  process.exit(2);
}

const policy = { enabled: true, mode: 'redact', allow: Allowlist.empty() };
const set = ruleSet();
const results = [];
for (const { name, dir } of corpora) {
  const { files } = walkRepo(dir, walkOptions(DEFAULT_CONFIG));
  let scanned = 0;
  let bytes = 0;
  let ms = 0;
  const findings = [];
  const byRule = {};
  const flaggedFiles = new Set();
  for (const f of files) {
    const buf = fs.readFileSync(path.join(dir, f.path));
    if (buf.length > DEFAULT_CONFIG.maxFileBytes || isBinary(buf)) continue;
    const text = buf.toString('utf8');
    if (minifiedReason(f.path, text)) continue;
    scanned++;
    bytes += buf.length;
    const t = performance.now();
    const r = scrubText(f.path, text, policy);
    ms += performance.now() - t;
    for (const x of r.findings) {
      flaggedFiles.add(f.path);
      byRule[x.rule] = (byRule[x.rule] ?? 0) + 1;
      findings.push({ path: f.path, line: x.line, rule: x.rule, length: x.end - x.start });
      if (show) console.log(`${name} ${f.path}:${x.line} ${x.rule}\n    ${text.split('\n')[x.line - 1].trim().slice(0, 200)}`);
    }
  }
  const lines = new Set(findings.map((x) => `${x.path}:${x.line}`)).size;
  const row = {
    corpus: name, files: scanned, megabytes: +(bytes / 1e6).toFixed(2), flaggedFiles: flaggedFiles.size,
    flaggedFilesPercent: +((100 * flaggedFiles.size) / Math.max(1, scanned)).toFixed(3), flaggedLines: lines,
    byRule, scanMs: Math.round(ms), msPerMB: +(ms / Math.max(bytes / 1e6, 1e-9)).toFixed(1), findings,
  };
  results.push(row);
  console.log(`${name}: ${scanned} files (${row.megabytes} MB), ${row.flaggedFiles} flagged (${row.flaggedFilesPercent}%), ${lines} lines; scan ${row.scanMs} ms (${row.msPerMB} ms/MB); ${JSON.stringify(byRule)}`);
}
if (out) {
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify({ date: new Date().toISOString().slice(0, 10), rules: set.rules.length,
    gitleaks: set.source.commit, results }, null, 1)}\n`);
}
