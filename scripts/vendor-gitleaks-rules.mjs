#!/usr/bin/env node
// Converts gitleaks' default rule set (config/gitleaks.toml, MIT) into rules/gitleaks.json, the data
// src/secrets/rules.ts reads. The rules are vendored as data, unchanged: ids, regexes (RE2 syntax,
// translated when loaded), keywords, entropy thresholds, secret groups and allowlists.
//
//   node scripts/vendor-gitleaks-rules.mjs <path to gitleaks.toml> <gitleaks commit>
//
// TOML is parsed by Python's standard tomllib (3.11+), so cg itself needs no TOML dependency: this
// script runs only when a maintainer updates the rules. Then rebuild, and run
// test/secrets-corpus.test.ts: a new rule without an example in fixtures/secrets-corpus.json fails it.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const [file, commit] = process.argv.slice(2);
if (!file || !/^[0-9a-f]{40}$/.test(commit ?? '')) {
  console.error('usage: node scripts/vendor-gitleaks-rules.mjs <path to gitleaks.toml> <40-hex gitleaks commit>');
  process.exit(2);
}
const bytes = fs.readFileSync(file);
const parsed = JSON.parse(execFileSync('python3', ['-c',
  'import json, sys, tomllib; json.dump(tomllib.load(open(sys.argv[1], "rb")), sys.stdout)', file], { maxBuffer: 64 << 20 }).toString());
const out = {
  source: {
    repository: 'gitleaks/gitleaks',
    path: 'config/gitleaks.toml',
    commit,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    license: 'MIT, Copyright (c) 2019 Zachary Rice (rules/LICENSE.gitleaks)',
  },
  minVersion: parsed.minVersion,
  allowlist: parsed.allowlist,
  rules: parsed.rules,
};
const dest = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'rules', 'gitleaks.json');
fs.writeFileSync(dest, `${JSON.stringify(out, null, 1)}\n`);
console.log(`${out.rules.length} rules from gitleaks ${commit.slice(0, 12)} -> ${path.relative(process.cwd(), dest)}`);
