import { Command } from 'commander';
import { CG_VERSION } from '../indexer/build.js';
import { registerIndex, registerInit } from './commands/index-cmd.js';
import { registerStatus } from './commands/status-cmd.js';
import { registerSymbols } from './commands/symbols-cmd.js';
import { registerRefs } from './commands/refs-cmd.js';
import { registerFile } from './commands/file-cmd.js';
import { registerNotify, registerUpdate } from './commands/update-cmd.js';
import { registerHooks } from './commands/hooks-cmd.js';
import { registerWatch } from './commands/watch-cmd.js';
import { registerContext, registerQuery } from './commands/query-cmd.js';
import { registerModel } from './commands/model-cmd.js';
import { registerSnapshot } from './commands/snapshot-cmd.js';
import { registerServe } from './commands/serve-cmd.js';
import { registerImpact } from './commands/impact-cmd.js';
import { registerMcpConfig } from './commands/mcp-config-cmd.js';
import { registerConfig } from './commands/config-cmd.js';
import { registerAudit, registerCollection, registerProject, registerScope } from './commands/registry-cmd.js';
import { registerAgent } from './commands/agent-cmd.js';
import { registerInstall } from './commands/install-cmd.js';
import { registerAnalyze } from './commands/analyze-cmd.js';
import { registerCheck } from './commands/check-cmd.js';
import { registerView } from './commands/view-cmd.js';
import { registerSignal } from './commands/signal-cmd.js';
import { registerDeps } from './commands/deps-cmd.js';

/** The `cg` command line: every subcommand registered, nothing parsed or run yet. */
export function createProgram(): Command {
  const program = new Command();
  program
    .name('cg')
    .description('CodeGrapher: a local code-intelligence index for AI coding agents')
    .version(CG_VERSION)
    .showSuggestionAfterError()
    .exitOverride()
    .configureOutput({ outputError: (str, write) => write(str) });

  registerInit(program);
  registerIndex(program);
  registerStatus(program);
  registerSymbols(program);
  registerRefs(program);
  registerFile(program);
  registerUpdate(program);
  registerNotify(program);
  registerHooks(program);
  registerWatch(program);
  registerQuery(program);
  registerContext(program);
  registerModel(program);
  registerSnapshot(program);
  registerImpact(program);
  registerServe(program);
  registerMcpConfig(program);
  registerConfig(program);
  registerProject(program);
  registerCollection(program);
  registerScope(program);
  registerAudit(program);
  registerAgent(program);
  registerInstall(program);
  registerAnalyze(program);
  registerCheck(program);
  registerView(program);
  registerSignal(program);
  registerDeps(program);

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
