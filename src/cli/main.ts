import { createProgram } from './program.js';
import { run } from './run.js';

// `cg update` runs from src/cli/update-main.ts instead (bin/cg.js), as one file of the bundle.
await run(await createProgram(process.argv.slice(2)));
