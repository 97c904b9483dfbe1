#!/usr/bin/env node
/**
 * Bundles the compiled code (dist/) into a few files under dist/bundle/, which bin/cg.js runs when it is
 * at least as new as dist/cli/main.js. A `cg update` loads ~115 of cg's modules and a dozen small
 * packages; Node's ESM loader resolves, reads and links each one, which cost a one-file update and
 * every other CLI process ~30-50 ms before any work (issue 20: start-up). esbuild does what a bundler
 * does (scope hoisting, code splitting); nothing is rewritten by hand.
 *
 * - Entry points: the CLI, `cg serve`'s fast path and the three worker threads' modules, each at the path
 *   it has under dist/ (dist/bundle/cli/main.js, ...), so code finds its workers beside it
 *   (src/paths.ts BUILD_DIR). Commands stay lazy: each command's dynamic import becomes a chunk.
 * - Only the small pure-JavaScript packages the CLI loads at start (BUNDLED_PACKAGES) go in; every
 *   other package stays external and loads from node_modules as before: native code, files found at
 *   run time (web-tree-sitter's .wasm, piscina's worker), large lazy loads (the MCP SDK, unpdf, tar),
 *   UMD builds a bundler cannot follow (jsonc-parser), CommonJS that cg imports dynamically (yaml: a
 *   bundled `import()` of CommonJS yields only `default`, where Node also gives the named exports),
 *   and zod, whose schemas the external MCP SDK must see from its own copy. Bundled CommonJS calls
 *   `require`, which an ES module lacks: the banner makes one.
 * - `cg update` (src/cli/update-main.ts) is bundled a second time, on its own without splitting: one
 *   file, for the process the hooks start after every change.
 * - `__CG_BUNDLE__` is defined, so the code knows where it runs from (src/paths.ts).
 *
 * Usage: node scripts/bundle.mjs [--quiet]   (run by `npm run build` after tsc)
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'dist');
const OUT = path.join(DIST, 'bundle');
const quiet = process.argv.includes('--quiet');

const ENTRIES = ['cli/main.js', 'mcp/entry.js', 'extract/worker.js', 'vectors/rebuild-worker.js', 'indexer/apply-worker.js'].map((f) => path.join(DIST, f));
const BUNDLED_PACKAGES = new Set(['commander', 'picomatch', 'ignore', 'smol-toml', 'fastest-levenshtein', 'base64-js']);

/** `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`. */
const packageName = (spec) => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');
const externals = {
  name: 'cg-externals',
  setup(b) {
    // A bare specifier (a package or a Node built-in) stays an import unless its package is bundled.
    b.onResolve({ filter: /^[^./]/ }, (args) => (BUNDLED_PACKAGES.has(packageName(args.path)) ? undefined : { path: args.path, external: true }));
  },
};

for (const entry of ENTRIES) {
  if (!fs.existsSync(entry)) {
    console.error(`bundle: ${path.relative(ROOT, entry)} is missing; run tsc first (npm run build does).`);
    process.exit(1);
  }
}
// Chunk names carry a hash: a stale chunk of an earlier build would only take space.
fs.rmSync(OUT, { recursive: true, force: true });
// What both builds share: ES modules for Node 20, the externals, the define, the `require` banner.
const common = {
  outbase: DIST,
  outdir: OUT,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  plugins: [externals],
  define: { __CG_BUNDLE__: 'true' },
  banner: { js: "import { createRequire as __cgRequire } from 'node:module'; const require = __cgRequire(import.meta.url);" },
  legalComments: 'eof',
  metafile: true, // kept as dist/bundle/metafile.json: which modules each file holds (test/cli.test.ts reads it)
  logLevel: 'warning',
};
const result = await build({ ...common, entryPoints: ENTRIES, splitting: true });
// `cg update` (src/cli/update-main.ts), which the hooks start after every change, as one file with
// everything it imports: Node loads it in ~50 ms against ~75 for the same code as the CLI bundle's ~40
// shared files. The worker threads it starts are the split bundle's (BUILD_DIR is this folder).
const update = await build({ ...common, entryPoints: [path.join(DIST, 'cli', 'update-main.js')], splitting: false });
const metafile = { inputs: { ...result.metafile.inputs, ...update.metafile.inputs }, outputs: { ...result.metafile.outputs, ...update.metafile.outputs } };
fs.writeFileSync(path.join(OUT, 'metafile.json'), JSON.stringify(metafile));
if (!quiet) {
  const files = Object.entries(metafile.outputs);
  const bytes = files.reduce((n, [, o]) => n + o.bytes, 0);
  console.log(`bundle: ${files.length} files, ${(bytes / 1e6).toFixed(1)} MB in dist/bundle/ (from ${Object.keys(metafile.inputs).length} modules)`);
}
