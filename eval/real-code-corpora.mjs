#!/usr/bin/env node
// Per-language extraction figures on the real code listed in eval/corpora.json: each corpus is put in
// a scratch folder (a Debian package's files, or a repository at a commit cloned from a local mirror),
// indexed by eval/real-code.mjs, and its language's row kept.
// Usage: node eval/real-code-corpora.mjs [--mirror DIR] [--only LANG,...] [--out FILE] [--table]
//   --mirror DIR: holds <owner>+<name>/repo git directories (the fetch tool's layout); git corpora
//   without it are skipped. Writes eval/results/real-code-languages.json and prints the README's
//   Markdown rows; --table only prints them from the results file.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : null);
const mirror = opt('--mirror');
const only = opt('--only')?.split(',');
const out = opt('--out') ?? path.join(here, 'results', 'real-code-languages.json');
const { corpora } = JSON.parse(fs.readFileSync(path.join(here, 'corpora.json'), 'utf8'));
const { languageById } = await import('../dist/lang/registry.js');

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-corpora-'));
const run = (cmd, argv, cwd) => execFileSync(cmd, argv, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 });

/** The corpus in a folder of its own, named after the last part of its path or repository. */
function prepare(c) {
  if (c.deb) {
    const debs = path.join(scratch, 'debs');
    fs.mkdirSync(debs, { recursive: true });
    run('apt-get', ['download', c.deb], debs);
    const file = fs.readdirSync(debs).find((f) => f.startsWith(`${c.deb}_`) && f.endsWith('.deb'));
    const version = run('dpkg-deb', ['-f', path.join(debs, file), 'Version']).trim();
    const unpacked = path.join(scratch, `deb-${c.deb}`);
    run('dpkg', ['-x', path.join(debs, file), unpacked]);
    const dir = path.join(scratch, c.language, path.basename(c.path));
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    fs.cpSync(path.join(unpacked, c.path), dir, { recursive: true, dereference: false });
    return { dir: path.dirname(dir), source: `${c.deb} ${version}` };
  }
  if (!mirror) return null;
  const gitDir = path.join(mirror, c.git.replace('/', '+'), 'repo');
  const dir = path.join(scratch, c.language, c.git.split('/')[1]);
  run('git', ['clone', '-q', '--shared', '--no-checkout', gitDir, dir]);
  run('git', ['-c', 'advice.detachedHead=false', 'checkout', '-q', c.commit], dir);
  return { dir, source: `${c.git}@${c.commit}` };
}

const results = [];
for (const c of args.includes('--table') ? [] : corpora) {
  if (only && !only.includes(c.language)) continue;
  const ready = prepare(c);
  if (!ready) {
    console.error(`skipped ${c.label}: a git corpus needs --mirror`);
    continue;
  }
  const report = JSON.parse(run(process.execPath, [path.join(here, 'real-code.mjs'), ready.dir, '--label', c.label]));
  const row = report.rows.find((r) => r.language === c.language);
  results.push({ ...row, source: ready.source });
  console.error(`${c.language}: ${row.files} files, ${row.callsResolvedPct}% of calls resolved`);
}
fs.rmSync(scratch, { recursive: true, force: true });

const previous = fs.existsSync(out) ? JSON.parse(fs.readFileSync(out, 'utf8')) : { rows: [] };
const kept = previous.rows.filter((r) => !results.some((n) => n.language === r.language));
const rows = [...kept, ...results].sort((a, b) => corpora.findIndex((c) => c.language === a.language) - corpora.findIndex((c) => c.language === b.language));
if (results.length) fs.writeFileSync(out, `${JSON.stringify({ machine: `${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}`.trim(), rows }, null, 2)}\n`);

const pct = (x) => `${x}%`;
const k = (n) => (n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n));
console.log('| corpus | language | files | lines | parsed without error | symbols / kLOC | call sites | resolved | external | unresolved | resolved of non-external |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  const t = r.byTier ?? {};
  const nameOnly = 100 * (t.global ?? 0) / Math.max(1, r.callSites);
  const unresolved = +(100 - r.callsResolvedPct - r.callsExternalPct).toFixed(1);
  const ofNonExternal = +(100 * r.callsResolvedPct / Math.max(0.1, 100 - r.callsExternalPct)).toFixed(1);
  console.log(`| ${r.label} | ${languageById(r.language).displayName} | ${r.files} | ${k(r.loc)} | ${pct(r.parsedWithoutErrorPct)} | ${r.symbolsPerKloc} | ${r.callSites.toLocaleString('en')} | **${pct(r.callsResolvedPct)}** (${(r.callsResolvedPct - nameOnly).toFixed(1)}%, ${nameOnly.toFixed(1)}%) | ${pct(r.callsExternalPct)} | ${pct(unresolved)} | ${pct(ofNonExternal)} |`);
}
