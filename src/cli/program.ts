import { Command } from 'commander';
import { baseProgram } from './base-program.js';

type Register = (program: Command) => void;

/**
 * Every top-level command, in the order help lists them, with the function that registers it (and
 * its subcommands). Each command module pulls in its command's whole implementation, so a process
 * loads only the module of the command it runs: `cg symbols` does not load the indexer, the grammars,
 * the MCP tools or the snapshot code (on Django it answers in a quarter of the time it took when every
 * command was loaded: eval/results/bench-startup.json).
 */
const COMMANDS: ReadonlyArray<{ names: readonly string[]; load: () => Promise<Register> }> = [
  { names: ['init'], load: async () => (await import('./commands/index-cmd.js')).registerInit },
  { names: ['index'], load: async () => (await import('./commands/index-cmd.js')).registerIndex },
  { names: ['status'], load: async () => (await import('./commands/status-cmd.js')).registerStatus },
  { names: ['symbols'], load: async () => (await import('./commands/symbols-cmd.js')).registerSymbols },
  { names: ['refs'], load: async () => (await import('./commands/refs-cmd.js')).registerRefs },
  { names: ['file'], load: async () => (await import('./commands/file-cmd.js')).registerFile },
  { names: ['update'], load: async () => (await import('./commands/update-cmd.js')).registerUpdate },
  { names: ['notify'], load: async () => (await import('./commands/notify-cmd.js')).registerNotify },
  { names: ['hooks'], load: async () => (await import('./commands/hooks-cmd.js')).registerHooks },
  { names: ['watch'], load: async () => (await import('./commands/watch-cmd.js')).registerWatch },
  { names: ['query'], load: async () => (await import('./commands/query-cmd.js')).registerQuery },
  { names: ['context'], load: async () => (await import('./commands/query-cmd.js')).registerContext },
  { names: ['model'], load: async () => (await import('./commands/model-cmd.js')).registerModel },
  { names: ['snapshot'], load: async () => (await import('./commands/snapshot-cmd.js')).registerSnapshot },
  { names: ['tests-for', 'impact', 'map'], load: async () => (await import('./commands/impact-cmd.js')).registerImpact },
  { names: ['serve'], load: async () => (await import('./commands/serve-cmd.js')).registerServe },
  { names: ['mcp-config'], load: async () => (await import('./commands/mcp-config-cmd.js')).registerMcpConfig },
  { names: ['config'], load: async () => (await import('./commands/config-cmd.js')).registerConfig },
  { names: ['project'], load: async () => (await import('./commands/registry-cmd.js')).registerProject },
  { names: ['collection'], load: async () => (await import('./commands/registry-cmd.js')).registerCollection },
  { names: ['scope'], load: async () => (await import('./commands/registry-cmd.js')).registerScope },
  { names: ['audit'], load: async () => (await import('./commands/registry-cmd.js')).registerAudit },
  { names: ['agent'], load: async () => (await import('./commands/agent-cmd.js')).registerAgent },
  { names: ['install', 'uninstall'], load: async () => (await import('./commands/install-cmd.js')).registerInstall },
  { names: ['hook'], load: async () => (await import('./commands/hook-cmd.js')).registerHook },
  { names: ['analyze'], load: async () => (await import('./commands/analyze-cmd.js')).registerAnalyze },
  { names: ['check'], load: async () => (await import('./commands/check-cmd.js')).registerCheck },
  { names: ['view', 'export'], load: async () => (await import('./commands/view-cmd.js')).registerView },
  { names: ['signal'], load: async () => (await import('./commands/signal-cmd.js')).registerSignal },
  { names: ['deps'], load: async () => (await import('./commands/deps-cmd.js')).registerDeps },
];

/** Every top-level command name, in help order. */
export const COMMAND_NAMES: readonly string[] = COMMANDS.flatMap((c) => c.names);

/**
 * The `cg` command line, nothing parsed or run yet. `args` (the arguments after `cg`) picks what to
 * register: only the named command's module when the first argument names one, nothing but the
 * version for `--version`, and every command otherwise (help, a mistyped command and its suggestion).
 */
export async function createProgram(args?: readonly string[]): Promise<Command> {
  const program = baseProgram();
  const first = args?.[0];
  const named = COMMANDS.find((c) => first !== undefined && c.names.includes(first));
  const wanted = named ? [named] : first === '--version' || first === '-V' ? [] : COMMANDS;
  for (const register of await Promise.all(wanted.map((c) => c.load()))) register(program);
  return program;
}
