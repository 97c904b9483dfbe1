import { createProgram } from './program.js';
import { run } from './run.js';
import { optimizeLater } from '../compilers.js';

// bin/cg.js runs `cg update` from src/cli/update-main.ts, one file of the bundle; run from here, it starts the same way.
if (process.argv[2] === 'update') optimizeLater();
await run(await createProgram(process.argv.slice(2)));
