#!/usr/bin/env node
// The `cg` command. The implementation is compiled TypeScript in dist/.
import('../dist/cli/main.js').catch((err) => {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/cli/main.js')) {
    process.stderr.write('cg: the compiled code is missing (dist/).\nhint: run `npm run build` in the cg checkout.\n');
    process.exit(1);
  }
  throw err;
});
