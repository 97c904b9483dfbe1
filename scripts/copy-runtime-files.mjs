#!/usr/bin/env node
/**
 * Copies the few files cg reads at run time out of two large devDependencies, so the npm package
 * ships them instead of the whole packages:
 *   grammars/           the tree-sitter grammars of cg's languages (src/lang/registry.ts), gzipped
 *                       (36 MB -> 3.3 MB), from @repomix/tree-sitter-wasms (23 MB installed) and
 *                       @cursorless/tree-sitter-wasms (44 MB), each holding languages cg does not parse
 *   vendor/js-tiktoken/ js-tiktoken's count-only entry point (`js-tiktoken/lite` and its one chunk) and
 *                       the cl100k_base ranks: the package is 22 MB, every encoding bundled twice; these are 1.1 MB
 *   vendor/cl100k/      the same ranks as one flat table (src/retrieve/bpe-table.ts), which cg counts with
 * Each goes with its licence (both grammar packages: the Unlicense; js-tiktoken: MIT, in its package.json). src/lang/loader.ts
 * and src/retrieve/tokens.ts read these copies, and the packages themselves in a checkout that has not
 * been built. Run by `npm run build` after tsc (the registry is read from dist/); files already there
 * with the same bytes are left alone.
 *
 * Usage: node scripts/copy-runtime-files.mjs [--quiet]
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const quiet = process.argv.includes('--quiet');
const require = createRequire(import.meta.url);

function packageDir(name) {
  try {
    return path.dirname(require.resolve(`${name}/package.json`));
  } catch {
    /* an `exports` map that does not list package.json: from the entry point up, below */
  }
  try {
    let dir = path.dirname(require.resolve(name));
    while (!fs.existsSync(path.join(dir, 'package.json')) || JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).name !== name) {
      if (path.dirname(dir) === dir) throw new Error(`no package.json for ${name}`);
      dir = path.dirname(dir);
    }
    return dir;
  } catch {
    process.stderr.write(`copy-runtime-files: the npm package ${name} is not installed\nhint: run \`npm ci\` (it is a devDependency of cg)\n`);
    process.exit(1);
  }
}

let written = 0;
/** Copies one file (gzipped when `gzip`), unless the same bytes are already there. */
function place(from, to, gzip = false) {
  // Node's gzip header carries no time or name: the same input gives the same bytes.
  placeData(gzip ? gzipSync(fs.readFileSync(from), { level: 9 }) : fs.readFileSync(from), to);
}

/** Writes `data` to `to`, unless the same bytes are already there. */
function placeData(data, to) {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  if (fs.existsSync(to) && fs.readFileSync(to).equals(data)) return;
  fs.writeFileSync(`${to}.tmp`, data);
  fs.renameSync(`${to}.tmp`, to);
  written++;
}

/** Copies `files` (relative to the package) into `outDir`, and removes anything else there. */
function copy(pkg, outDir, files) {
  const from = packageDir(pkg);
  const out = path.join(ROOT, outDir);
  const names = new Set(files.map((f) => path.basename(f)));
  for (const file of files) place(path.join(from, file), path.join(out, path.basename(file)));
  // Files no longer wanted (a new chunk name) do not linger in the package.
  for (const name of fs.readdirSync(out)) if (!names.has(name)) fs.rmSync(path.join(out, name));
}

const { LANGUAGES } = await import(path.join(ROOT, 'dist', 'lang', 'registry.js'));
// Each language names the package its grammar comes from (src/lang/types.ts, grammarPackage).
const byPackage = new Map();
for (const l of LANGUAGES) {
  const pkg = l.grammarPackage ?? '@repomix/tree-sitter-wasms';
  byPackage.set(pkg, [...new Set([...(byPackage.get(pkg) ?? []), l.grammar])].sort());
}
const grammars = [...byPackage.values()].flat();
const grammarFiles = new Set();
for (const [pkg, files] of [...byPackage].sort()) {
  const from = packageDir(pkg);
  const licence = `LICENSE.${pkg.replace(/^@/, '').replace('/', '-')}`;
  for (const [rel, name] of [...files.map((g) => [`out/${g}`, `${g}.gz`]), ['LICENSE', licence]]) {
    if (grammarFiles.has(name)) throw new Error(`copy-runtime-files: two packages give ${name}`);
    grammarFiles.add(name);
    place(path.join(from, rel), path.join(ROOT, 'grammars', name), name.endsWith('.gz'));
  }
}
for (const name of fs.readdirSync(path.join(ROOT, 'grammars'))) if (!grammarFiles.has(name)) fs.rmSync(path.join(ROOT, 'grammars', name));

// lite.js re-exports from one content-hashed chunk, which imports base64-js (a dependency of cg).
const tiktoken = packageDir('js-tiktoken');
const lite = fs.readFileSync(path.join(tiktoken, 'dist', 'lite.js'), 'utf8');
const chunks = [...lite.matchAll(/from '\.\/(chunk-[\w-]+\.js)'/g)].map((m) => `dist/${m[1]}`);
if (!chunks.length) {
  process.stderr.write('copy-runtime-files: js-tiktoken/dist/lite.js no longer imports a chunk as expected\nhint: check its layout and update this script\n');
  process.exit(1);
}
copy('js-tiktoken', path.join('vendor', 'js-tiktoken'), ['dist/lite.js', ...chunks, 'dist/ranks/cl100k_base.js', 'package.json']);

// cl100k's ranks as one flat table (src/retrieve/bpe-table.ts): read in milliseconds where js-tiktoken
// builds its maps from the base64 text in ~0.3 s per process. Written from the ranks file copied above.
const { default: cl100k } = await import(path.join(ROOT, 'vendor', 'js-tiktoken', 'cl100k_base.js'));
const { BpeTable } = await import(path.join(ROOT, 'dist', 'retrieve', 'bpe-table.js'));
const ranks = new Map();
for (const line of cl100k.bpe_ranks.split('\n').filter(Boolean)) {
  const [, offset, ...tokens] = line.split(' ');
  tokens.forEach((token, i) => ranks.set(token, Number.parseInt(offset, 10) + i));
}
const tableDir = path.join(ROOT, 'vendor', 'cl100k');
const table = BpeTable.encode([...ranks].map(([token, rank]) => [new Uint8Array(Buffer.from(token, 'base64')), rank]));
const meta = `${JSON.stringify({ encoding: 'cl100k_base', from: 'js-tiktoken (MIT), ranks/cl100k_base', tokens: ranks.size,
  pat_str: cl100k.pat_str, special_tokens: cl100k.special_tokens })}\n`;
placeData(table, path.join(tableDir, 'ranks.bin'));
placeData(Buffer.from(meta), path.join(tableDir, 'meta.json'));

if (!quiet) {
  process.stdout.write(`copy-runtime-files: ${grammars.length} grammars in grammars/, js-tiktoken's counter in vendor/js-tiktoken/, `
    + `its ranks as a table in vendor/cl100k/ (${written} files written)\n`);
}
