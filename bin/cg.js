#!/usr/bin/env node
// The `cg` command. The implementation is compiled TypeScript in dist/.
// `cg serve` skips the CLI's other modules (src/mcp/entry.ts): MCP clients start it and wait for it.
const serve = process.argv[2] === 'serve'
  ? import('../dist/mcp/entry.js').then((m) => m.fastServe(process.argv.slice(3)))
  : Promise.resolve(false);
serve.then((served) => (served ? undefined : import('../dist/cli/main.js'))).catch(async (err) => {
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
