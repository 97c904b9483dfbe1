import { CommanderError } from 'commander';
import { reportError } from './output.js';
import { createProgram } from './program.js';
import { optimizeLater } from '../compilers.js';

// A `cg update` runs each pass once: V8's optimizing compiler stays off unless the update proves large (src/compilers.ts).
if (process.argv[2] === 'update') optimizeLater();

try {
  await (await createProgram(process.argv.slice(2))).parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    // Help and version "errors" are successes; everything else is a usage error (exit 2).
    process.exitCode = err.exitCode === 0 ? 0 : 2;
  } else {
    process.exitCode = reportError(err, process.argv.includes('--json'));
  }
}
