import { baseProgram } from './base-program.js';
import { run } from './run.js';
import { optimizeLater } from '../compilers.js';

/**
 * `cg update`, which the git hooks and the agents' edit hooks start after every change, on its own:
 * bin/cg.js runs this instead of src/cli/main.ts, and `npm run build` bundles it and everything it
 * imports into one file (scripts/bundle.mjs), which Node loads in ~50 ms against ~75 for the same code
 * as the ~40 shared files of the CLI's bundle.
 */

// A `cg update` runs each pass once: V8's optimizing compiler stays off unless the update proves large (src/compilers.ts).
optimizeLater();
const { registerUpdate } = await import('./commands/update-cmd.js');
const program = baseProgram();
registerUpdate(program);
await run(program);
