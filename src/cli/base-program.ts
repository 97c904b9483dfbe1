import { Command } from 'commander';
import { CG_VERSION } from '../version.js';

/**
 * The `cg` program with no command registered: its name, version, help text and error handling. A
 * module of its own, so that src/cli/update-main.ts builds on it without the other commands' modules.
 */
export function baseProgram(): Command {
  const program = new Command();
  program
    .name('cg')
    .description('CodeGrapher: a local code-intelligence index for AI coding agents')
    .version(CG_VERSION)
    .showSuggestionAfterError()
    .exitOverride()
    .configureOutput({ outputError: (str, write) => write(str) });
  program.addHelpText('after', `
Every command takes --repo DIR (default: the repository containing the current directory) and --help.
Examples:
  $ cg index && cg query "where are expired tokens refused"
  $ cg hooks install          # keep the index fresh after every commit, merge, checkout and rebase
  $ cg status --files skipped # what was left out, and why

Exit codes: 0 ok, 1 failure, 2 bad usage, 3 no usable index (run \`cg index\`), 4 symbol or file not found,
5 embedding model not available (run \`cg model pull\`), 6 another cg process is writing the index,
7 a snapshot was refused (damaged, unsafe, newer format or another repository's).`);
  return program;
}
