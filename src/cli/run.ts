import { CommanderError, type Command } from 'commander';
import { reportError } from './output.js';

/** Parses the process's arguments with `program` and runs the command, turning failures into exit codes. */
export async function run(program: Command): Promise<void> {
  // Output piped into a reader that stopped early (`cg symbols Foo | head`) ends the process quietly.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(process.exitCode ?? 0);
  });
  try {
    await program.parseAsync(process.argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version "errors" are successes; everything else is a usage error (exit 2).
      process.exitCode = err.exitCode === 0 ? 0 : 2;
    } else {
      process.exitCode = reportError(err, process.argv.includes('--json'));
    }
  }
}
