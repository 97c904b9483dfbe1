#!/usr/bin/env node
// Indexes a real source tree and prints the extraction figures the README reports per language:
// % of files parsed without syntax errors, symbols per kLOC, % of call sites resolved to a repository
// symbol (and the share that goes to external modules), and the build time.
// Usage: node eval/real-code.mjs DIR [--label NAME]    (writes DIR/.codegraph; point it at a scratch copy)
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const cg = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'cg.js');
const args = process.argv.slice(2);
const dir = args.find((a) => !a.startsWith('--'));
if (!dir) {
  console.error('usage: node eval/real-code.mjs DIR [--label NAME]');
  process.exit(2);
}
const label = args.includes('--label') ? args[args.indexOf('--label') + 1] : path.basename(path.resolve(dir));
const run = (...a) => JSON.parse(execFileSync(process.execPath, [cg, ...a, '--json'], { encoding: 'utf8', maxBuffer: 1 << 28 }));
const summary = run('index', dir, '--quiet');
const status = run('status', dir);
const rows = [];
for (const [lang, f] of Object.entries(status.files.byLanguage)) {
  const c = status.calls[lang] ?? { total: 0, resolved: 0, external: 0 };
  rows.push({
    label, language: lang, files: f.files, loc: f.loc,
    parsedWithoutErrorPct: +(100 * (f.files - f.partial) / Math.max(1, f.files)).toFixed(1),
    symbolsPerKloc: +(f.symbols / Math.max(1, f.loc / 1000)).toFixed(1),
    callSites: c.total,
    callsResolvedPct: +(100 * c.resolved / Math.max(1, c.total)).toFixed(1),
    callsExternalPct: +(100 * c.external / Math.max(1, c.total)).toFixed(1),
    byTier: c.byTier,
    indexSeconds: +(summary.durationMs / 1000).toFixed(2),
  });
}
console.log(JSON.stringify({ skipped: status.skipped, rows }, null, 2));
