import type { Command } from 'commander';
import { CLIENT_IDS, SCOPES, clientDecls, isClient, type ClientId, type Scope } from '../../agents/clients.js';
import { displayPath, install, uninstall, type InstallResult } from '../../agents/install.js';
import { findRoot } from '../../repo/root.js';
import { DEFAULT_TOOLSETS, parseToolsets } from '../../mcp/registry.js';
import { emit } from '../output.js';
import { usageError } from '../args.js';

interface InstallCliOpts { scope?: string; repo?: string; toolsets: string; hooks?: boolean; absolute?: boolean; dryRun?: boolean; json?: boolean }

function options(cmd: Command, verb: string): Command {
  return cmd
    .argument('<client>', CLIENT_IDS.join(' | '))
    .option('--scope <scope>', `project (a file in the repository, shared with the team) or user (your own, every project); default: project where the client has one`)
    .option('--repo <dir>', 'repository (default: the one containing the current directory)')
    .option('--dry-run', `show what would change, change nothing`)
    .option('--json', `print JSON: {client, scope, entry, changes: [{part, file, action, text}], warnings}`)
    .addHelpText('after', `\nClients: ${CLIENT_IDS.map((c) => `${c} (${clientDecls()[c].name})`).join(', ')}.\n${verb}`);
}

function resolve(client: string, opts: InstallCliOpts): { client: ClientId; scope: Scope; root: string } {
  if (!isClient(client)) throw usageError(`Unknown client "${client}"`, `Use one of: ${CLIENT_IDS.join(', ')}.`);
  if (opts.scope && !(SCOPES as readonly string[]).includes(opts.scope)) throw usageError(`Unknown --scope "${opts.scope}"`, 'Use project or user.');
  const d = clientDecls()[client];
  const scope = (opts.scope as Scope | undefined) ?? (d.scopes.project ? 'project' : 'user');
  return { client, scope, root: findRoot(opts.repo ?? process.cwd()) };
}

export function registerInstall(program: Command): void {
  options(program.command('install').description("wire cg's MCP server into an agent's own config file (idempotent; `cg uninstall` undoes it exactly)"),
    'Examples:\n  $ cg install claude              # .mcp.json\n  $ cg install claude --hooks      # and the session-start / search hooks (.claude/settings.json)\n'
    + '  cg install codex --scope user  # ~/.codex/config.toml\n  $ cg install cursor --dry-run')
    .option('--toolsets <list>', 'toolsets the server offers: default, codegrapher, bombe, codemem, analysis, all', DEFAULT_TOOLSETS.join(','))
    .option('--hooks', 'Claude Code only: also the hooks that put the repository map into a new session and cg\'s answer next to Grep/Glob (opt-in: see README)')
    .option('--absolute', 'user scope only: run this Node and this checkout by path instead of `cg` from PATH')
    .action(async (client: string, opts: InstallCliOpts) => {
      const r = resolve(client, opts);
      const toolsets = parseToolsets(opts.toolsets);
      await import('../../mcp/tools/index.js');
      const { toolsFor } = await import('../../mcp/registry.js');
      toolsFor(toolsets); // an unknown toolset is a usage error before anything is written
      const res = install({ ...r, toolsets, hooks: opts.hooks, absolute: opts.absolute, dryRun: opts.dryRun });
      emit(opts, res, (x) => render(x, r.root));
    });
  options(program.command('uninstall').description('take cg out of an agent\'s config file: the bytes from before `cg install`, or only cg\'s entries if the file was edited since'),
    'Examples:\n  $ cg uninstall claude\n  $ cg uninstall codex --scope user')
    .option('--toolsets <list>', '(ignored: accepted so an install command line can be repeated with uninstall)', DEFAULT_TOOLSETS.join(','))
    .action((client: string, opts: InstallCliOpts) => {
      const r = resolve(client, opts);
      const res = uninstall({ ...r, dryRun: opts.dryRun });
      emit(opts, res, (x) => render(x, r.root));
    });
}

function render(r: InstallResult, root: string): string {
  const verb: Record<string, string> = { create: 'created', update: 'updated', unchanged: 'already up to date', restore: 'restored', remove: 'cg entries removed', absent: 'nothing of cg\'s there' };
  const out = [`${r.clientName} (${r.scope} scope)${r.dryRun ? ': dry run, nothing written' : ''}`];
  for (const c of r.changes) out.push(`  ${displayPath(c.file, root)}: ${verb[c.action]}${c.part === 'hooks' ? ' (hooks)' : ''}${c.note ? ` (${c.note})` : ''}`);
  if (r.dryRun) for (const c of r.changes.filter((x) => x.action !== 'unchanged')) out.push('', `--- ${displayPath(c.file, root)} would become:`, c.text ?? '(deleted)');
  for (const w of r.warnings) out.push(`warning: ${w}`);
  return out.join('\n');
}
