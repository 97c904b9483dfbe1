#!/usr/bin/env node
// Archive bombs against `cg snapshot verify`'s unpacking (issue 22): each kind of eval/lib/bombs.mjs
// (5 GiB of zeros in a 5 MB archive) is verified in a fresh child process, R times, alternating kinds;
// reported are the median and worst wall time to the refusal and the child's peak resident memory,
// beside a child that only imports the same modules (the floor). Writes eval/results/bench-bomb.json.
//
// Usage: node eval/bench-bomb.mjs [--runs R]   (after npm run build)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BOMB_BYTES, BOMBS, CHILD, PEAK_RSS, writeBomb } from './lib/bombs.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const runs = Number(args.includes('--runs') ? args[args.indexOf('--runs') + 1] : 5);
const verify = path.join(here, '..', 'dist', 'snapshot', 'verify.js');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-bench-bomb-'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const child = (script, ...argv) => {
  const res = spawnSync(process.execPath, ['--input-type=module', '-e', script, ...argv], { encoding: 'utf8', timeout: 120_000 });
  if (res.status !== 0) throw new Error(`child failed (${res.status}): ${res.stderr}`);
  return JSON.parse(res.stdout);
};
const FLOOR = `${PEAK_RSS}
await import(process.argv[1]); process.stdout.write(JSON.stringify({ maxRssMb: peakRssMb() }));`;

try {
  const files = Object.fromEntries(Object.keys(BOMBS).map((kind) => [kind, writeBomb(scratch, kind)]));
  const samples = Object.fromEntries(Object.keys(BOMBS).map((k) => [k, []]));
  const floor = [];
  for (let r = 0; r < runs; r++) {
    floor.push(child(FLOOR, verify).maxRssMb);
    for (const kind of Object.keys(BOMBS)) samples[kind].push(child(CHILD, verify, files[kind]));
  }
  const results = {};
  for (const [kind, xs] of Object.entries(samples)) {
    results[kind] = {
      archiveBytes: fs.statSync(files[kind]).size,
      unpackedBytes: BOMB_BYTES,
      reasons: [...new Set(xs.map((x) => x.reason))],
      expected: BOMBS[kind].reason,
      medianMs: Math.round(median(xs.map((x) => x.ms))),
      maxMs: Math.round(Math.max(...xs.map((x) => x.ms))),
      peakRssMb: Math.round(Math.max(...xs.map((x) => x.maxRssMb))),
    };
  }
  const out = {
    date: new Date().toISOString().slice(0, 10),
    machine: `${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), shared with other work while measured`,
    runs,
    floorRssMb: Math.round(Math.max(...floor)),
    bombs: results,
  };
  fs.mkdirSync(path.join(here, 'results'), { recursive: true });
  fs.writeFileSync(path.join(here, 'results', 'bench-bomb.json'), `${JSON.stringify(out, null, 2)}\n`);
  console.log(`peak RSS of a child that only imports verify.js: ${out.floorRssMb} MB`);
  for (const [kind, r] of Object.entries(results)) {
    console.log(`${kind.padEnd(11)} ${(r.archiveBytes / 1e6).toFixed(1)} MB -> 5 GiB  refused as ${r.reasons.join('/')}  `
      + `median ${r.medianMs} ms, worst ${r.maxMs} ms, peak RSS ${r.peakRssMb} MB`);
  }
  const wrong = Object.entries(results).filter(([, r]) => r.reasons.length !== 1 || r.reasons[0] !== r.expected);
  if (wrong.length) {
    console.error(`not refused as expected: ${wrong.map(([k]) => k).join(', ')}`);
    process.exitCode = 1;
  }
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
