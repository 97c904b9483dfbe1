import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { CG_DIR } from '../../paths.js';
import { examples, usageError } from '../args.js';

/**
 * `cg hook EVENT`: what the Claude Code hooks `cg install claude --hooks` writes run
 * (src/agents/claude-hooks.ts). A module of its own, loading what an event needs only when it runs:
 * the post-edit hook runs after every edit the agent makes, and the agent waits for it.
 */
export function registerHook(program: Command): void {
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
    const { findRoot } = await import('../../repo/root.js');
    const root = findRoot(repo ?? path.dirname(abs));
    const rel = path.relative(root, abs).split(path.sep).join('/');
    if (!rel || rel.startsWith('..') || path.isAbsolute(rel) || !fs.existsSync(path.join(root, CG_DIR))) return;
    const { leadsOutside } = await import('../../repo/contained.js');
    if (leadsOutside(root, rel)) return;
    const { recordSaves, startBackgroundApplier } = await import('../../indexer/notify.js');
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
    const { openIndex } = await import('../repo.js');
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
