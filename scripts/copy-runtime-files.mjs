#!/usr/bin/env node
/**
 * Copies the few files cg reads at run time out of two large devDependencies, so the npm package
 * ships them instead of the whole packages:
 *   grammars/           the tree-sitter grammars of cg's languages (src/lang/registry.ts) from
 *                       @repomix/tree-sitter-wasms: 17 languages, 23 MB installed; cg parses 9 (9.6 MB)
 *   vendor/js-tiktoken/ js-tiktoken's count-only entry point (`js-tiktoken/lite` and its one chunk) and
 *                       the cl100k_base ranks: the package is 22 MB, every encoding bundled twice; these are 1.1 MB
 * Each goes with its licence (the Unlicense; MIT, in js-tiktoken's package.json). src/lang/loader.ts
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
/** Copies `files` (relative to the package) into `outDir` as `rename(file)`, and removes anything else there. */
function copy(pkg, outDir, files, rename = (f) => path.basename(f)) {
  const from = packageDir(pkg);
  const out = path.join(ROOT, outDir);
  fs.mkdirSync(out, { recursive: true });
  const names = new Set();
  for (const file of files) {
    const to = path.join(out, rename(file));
    names.add(path.basename(to));
    const data = fs.readFileSync(path.join(from, file));
    if (fs.existsSync(to) && fs.readFileSync(to).equals(data)) continue;
    fs.writeFileSync(`${to}.tmp`, data);
    fs.renameSync(`${to}.tmp`, to);
    written++;
  }
  // Files no longer wanted (a language removed, a new chunk name) do not linger in the package.
  for (const name of fs.readdirSync(out)) if (!names.has(name)) fs.rmSync(path.join(out, name));
  return names.size;
}

const { LANGUAGES } = await import(path.join(ROOT, 'dist', 'lang', 'registry.js'));
const grammars = [...new Set(LANGUAGES.map((l) => l.grammar))].sort();
copy('@repomix/tree-sitter-wasms', 'grammars', [...grammars.map((g) => `out/${g}`), 'LICENSE'],
  (f) => (f === 'LICENSE' ? 'LICENSE.tree-sitter-wasms' : path.basename(f)));

// lite.js re-exports from one content-hashed chunk, which imports base64-js (a dependency of cg).
const tiktoken = packageDir('js-tiktoken');
const lite = fs.readFileSync(path.join(tiktoken, 'dist', 'lite.js'), 'utf8');
const chunks = [...lite.matchAll(/from '\.\/(chunk-[\w-]+\.js)'/g)].map((m) => `dist/${m[1]}`);
if (!chunks.length) {
  process.stderr.write('copy-runtime-files: js-tiktoken/dist/lite.js no longer imports a chunk as expected\nhint: check its layout and update this script\n');
  process.exit(1);
}
copy('js-tiktoken', path.join('vendor', 'js-tiktoken'), ['dist/lite.js', ...chunks, 'dist/ranks/cl100k_base.js', 'package.json']);

if (!quiet) {
  process.stdout.write(`copy-runtime-files: ${grammars.length} grammars in grammars/, js-tiktoken's counter in vendor/js-tiktoken/ (${written} files written)\n`);
}
