#!/usr/bin/env node
// The `cg` command. The implementation is compiled TypeScript in dist/, bundled into dist/bundle/ by
// `npm run build` (scripts/bundle.mjs: a process loads a few files instead of ~115 modules). The bundle
// runs only when it is at least as new as dist/cli/main.js, so a build by tsc alone never runs stale code.
// `cg serve` skips the CLI's other modules (src/mcp/entry.ts): MCP clients start it and wait for it; `cg
// update`, which hooks start after every change, runs from a file of its own (src/cli/update-main.ts).
import fs from 'node:fs';

const mtime = (rel) => {
  try {
    return fs.statSync(new URL(rel, import.meta.url)).mtimeMs;
  } catch {
    return -1;
  }
};
const compiled = mtime('../dist/cli/main.js');
const build = compiled >= 0 && mtime('../dist/bundle/cli/main.js') >= compiled ? '../dist/bundle' : '../dist';
const serve = process.argv[2] === 'serve'
  ? import(`${build}/mcp/entry.js`).then((m) => m.fastServe(process.argv.slice(3)))
  : Promise.resolve(false);
const entry = process.argv[2] === 'update' ? 'update-main.js' : 'main.js';
serve.then((served) => (served ? undefined : import(`${build}/cli/${entry}`))).catch(async (err) => {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('/dist/')) {
    process.stderr.write('cg: the compiled code is missing (dist/).\nhint: run `npm run build` in the cg checkout.\n');
    process.exit(1);
  }
  // A native module that fails while the modules load (before the CLI's own error reporting exists).
  const { nativeModuleError } = await import('../dist/errors.js');
  const { PACKAGE_ROOT } = await import('../dist/paths.js');
  const e = nativeModuleError(err, PACKAGE_ROOT);
  if (!e) throw err;
  process.stderr.write(`cg: ${e.message}\nhint: ${e.hint}\n`);
  process.exit(e.exitCode);
});
