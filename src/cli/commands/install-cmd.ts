import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { CLIENT_IDS, SCOPES, clientDecls, isClient, type ClientId, type Scope } from '../../agents/clients.js';
import { displayPath, install, uninstall, type InstallResult } from '../../agents/install.js';
import { findRoot } from '../../repo/root.js';
import { DEFAULT_TOOLSETS, parseToolsets } from '../../mcp/registry.js';
import { emit } from '../output.js';
import { examples, usageError } from '../args.js';
import { openIndex } from '../repo.js';
import { CG_DIR } from '../../paths.js';

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
  program.command('hook')
    .description('run by the agent hooks `cg install claude --hooks` writes: reads the hook\'s JSON on stdin, prints context for the agent '
      + 'or records the file it edited (never fails the agent)')
    .argument('<event>', 'session-start | pre-search | post-edit')
    .option('--repo <dir>', 'repository (default: the hook\'s cwd, or the current directory)')
    .addHelpText('after', examples(["echo '{\"cwd\": \".\"}' | cg hook session-start"]))
    .action(async (event: string, opts: { repo?: string }) => {
      if (event === 'post-edit') return runPostEdit(opts.repo);
      if (event !== 'session-start' && event !== 'pre-search') throw usageError(`Unknown hook "${event}"`, 'Use session-start, pre-search or post-edit.');
      await runHook(event, opts.repo);
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

/**
 * After the agent's Edit, MultiEdit, Write or NotebookEdit: the file is recorded as saved in its
 * repository's change log and applied as `cg notify` applies it (by the running `cg serve`, `cg watch`
 * or `cg agent` when one announced itself, else by a background applier). Silent, and never a failure:
 * a file outside a repository with an index, or bad input, records nothing.
 */
async function runPostEdit(repo?: string): Promise<void> {
  try {
    const input = JSON.parse(fs.readFileSync(0, 'utf8')) as { cwd?: string; tool_input?: { file_path?: unknown; notebook_path?: unknown } };
    const file = input.tool_input?.file_path ?? input.tool_input?.notebook_path;
    if (typeof file !== 'string' || !file) return;
    const abs = path.resolve(input.cwd ?? process.cwd(), file);
    const root = findRoot(repo ?? path.dirname(abs));
    const rel = path.relative(root, abs).split(path.sep).join('/');
    if (!rel || rel.startsWith('..') || path.isAbsolute(rel) || !fs.existsSync(path.join(root, CG_DIR))) return;
    const { leadsOutside } = await import('../../repo/contained.js');
    if (leadsOutside(root, rel)) return;
    const { recordSaves, startBackgroundApplier } = await import('../../indexer/update.js');
    recordSaves(root, [rel]);
    startBackgroundApplier(root);
  } catch {
    // the agent goes on; the next commit's hook or `cg update` catches the file up
  }
}

/**
 * A hook never breaks the agent: with no index, bad input or any failure it prints nothing and exits
 * 0 (Claude Code shows a failing hook's stderr to the user on every call).
 */
async function runHook(event: 'session-start' | 'pre-search', repo?: string): Promise<void> {
  let input: { cwd?: string; tool_name?: string; tool_input?: { pattern?: string } } = {};
  try {
    const raw = fs.readFileSync(0, 'utf8');
    if (raw.trim()) input = JSON.parse(raw);
  } catch {
    // no or bad stdin: nothing to go on but the directory
  }
  let opened;
  try {
    opened = openIndex(repo ?? input.cwd ?? process.cwd());
  } catch {
    return;
  }
  const { root, db } = opened;
  try {
    const { sessionStartContext, preSearchContext } = await import('../../agents/claude-hooks.js');
    const text = event === 'session-start'
      ? await sessionStartContext(db)
      : input.tool_input?.pattern ? await preSearchContext(db, root, input.tool_name ?? 'Grep', input.tool_input.pattern) : null;
    if (text) {
      process.stdout.write(`${JSON.stringify({ hookSpecificOutput: { hookEventName: event === 'session-start' ? 'SessionStart' : 'PreToolUse', additionalContext: text } })}\n`);
    }
  } catch {
    // the agent goes on without cg's context
  } finally {
    db.close();
  }
}
