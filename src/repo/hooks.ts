import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { CgError, errorMessage } from '../errors.js';
import { PACKAGE_ROOT } from '../paths.js';
import { addLefthookEntries, lefthookConfig, lefthookEntry, lefthookLocalFile, removeLefthookEntries, syncLefthook } from './lefthook.js';

/**
 * Installs cg's git hooks without clobbering anyone else's, and without putting a machine path into a
 * file a team shares. Where git runs hooks from decides how:
 *   - `.git/hooks/` (local to this clone): a stub that names this Node and this cg by absolute path,
 *     so it works whatever PATH a git client has. An existing hook is moved to `<hook>.cg-orig` and
 *     the stub runs it first, with the same arguments, standard input and exit status.
 *   - a folder in the work tree that git runs hooks from (husky's `.husky/` in any folder, a tracked
 *     core.hooksPath such as `.githooks/`): a marked block of portable lines at the top of
 *     `<folder>/<hook>` (created if missing) that runs `cg-hook` from PATH and does nothing where cg is
 *     not installed, so a teammate without cg commits as before. Husky's reinstall regenerates only
 *     `.husky/_/`, never these scripts.
 *   - lefthook (a lefthook.yml at the root): a `cg` command in lefthook-local.yml, the same portable
 *     line, so every `lefthook install` writes it into the hooks again (src/repo/lefthook.ts).
 * What was installed is recorded in the git directory (`cg-hooks.json`, local to the clone), so status
 * can tell "never installed" from "installed, then removed by a reinstall, a checkout or an edit".
 * Uninstall undoes exactly what install did: stubs deleted, originals moved back, blocks and entries
 * cut out (a file cg created is deleted), leaving the bytes and mode that were there before.
 */
export const HOOK_NAMES = ['post-commit', 'post-merge', 'post-checkout', 'post-rewrite'] as const;
export type HookName = (typeof HOOK_NAMES)[number];

const BEGIN = '# >>> cg (CodeGrapher) change-log hook: `cg hooks uninstall` removes this >>>';
const END = '# <<< cg <<<';
const ORIG_SUFFIX = '.cg-orig';
/** In a block: cg created the file, so uninstalling deletes it rather than leaving it empty. */
const CREATED = '# cg-created-file';
const RECORD = 'cg-hooks.json';

/** Who runs the hooks: git from its own folder, git from a folder in the work tree, husky, or lefthook. */
export type HookManager = 'git' | 'hooks-path' | 'husky' | 'lefthook';

/**
 * installed: cg's hook runs on the event. not_installed: it never was (or was uninstalled).
 * removed: it was installed here and is gone (a hook manager's reinstall, a checkout, an edit).
 * stale: a local stub names a cg installation that is not this one. inactive: lefthook has cg's entry
 * but has not written the hook file yet (`lefthook install`).
 */
export type HookState = 'installed' | 'not_installed' | 'removed' | 'stale' | 'inactive';

export interface HookStatus {
  hook: HookName;
  /** The file that holds cg's hook (for lefthook: its local configuration). */
  path: string;
  state: HookState;
  /** cg's stub chains a hook that was there before it. */
  chained: boolean;
  /** The file also holds someone else's hook (a husky script, a chained original, other lefthook commands). */
  shared: boolean;
  /** What to do, when the state is not installed. */
  hint?: string;
}

export interface HooksLocation {
  /** The folder whose files hold cg's hooks (for lefthook, the repository root). */
  dir: string;
  manager: HookManager;
  /** The files are the team's (in the work tree, not ignored): only portable lines go there. */
  portable: boolean;
}

interface InstallRecord {
  manager: HookManager;
  dir: string;
  hooks: HookName[];
}

function git(root: string, args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new CgError('usage', 'git is not installed or not on PATH', 'Hooks need git; install it, or use `cg notify`/`cg watch` instead.');
    }
    throw new CgError('usage', `${root} is not a git repository`,
      'Hooks need a git repository; in a plain folder, use `cg watch` or run `cg update` after edits.');
  }
}

function gitOrEmpty(root: string, args: string[]): string {
  try {
    return git(root, args);
  } catch {
    return '';
  }
}

/** git's own hooks folder (`.git/hooks`, or the common one of a linked worktree), ignoring core.hooksPath. */
function gitHooksDir(root: string): string {
  return path.resolve(root, git(root, ['rev-parse', '--git-common-dir']), 'hooks');
}

/** Where hooks run from, and who manages them. */
export function hooksLocation(root: string): HooksLocation {
  const gitDir = path.resolve(root, git(root, ['rev-parse', '--git-dir']));
  const hooksPath = gitOrEmpty(root, ['config', '--get', 'core.hooksPath']);
  if (!hooksPath && lefthookConfig(root)) return { dir: root, manager: 'lefthook', portable: true };
  if (!hooksPath) return { dir: gitHooksDir(root), manager: 'git', portable: false };
  const resolved = path.resolve(root, hooksPath.replace(/^~(?=\/)/, process.env.HOME ?? '~'));
  // husky 9 points core.hooksPath at <dir>/_, which it regenerates, and runs the scripts in <dir>.
  const husky = path.basename(resolved) === '_' && (fs.existsSync(path.join(resolved, 'h')) || fs.existsSync(path.join(resolved, 'husky.sh')));
  const dir = husky ? path.dirname(resolved) : resolved;
  const inTree = isInside(root, dir) && !isInside(gitDir, dir) && !ignored(root, dir);
  return { dir, manager: husky ? 'husky' : 'hooks-path', portable: inTree };
}

function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function ignored(root: string, dir: string): boolean {
  try {
    execFileSync('git', ['check-ignore', '-q', path.relative(root, dir) || '.'], { cwd: root, stdio: 'ignore' });
    return true;
  } catch {
    return false; // exit 1: not ignored
  }
}

/** The line that runs cg's hook script from PATH, and nothing where cg is not installed. */
function portableCommand(hook: string, args: string): string {
  return `command -v cg-hook >/dev/null 2>&1 && cg-hook ${hook} ${args} || true`;
}

/**
 * A block for a file in a local folder: this Node and this cg by absolute path. Such a block only ever
 * sits in cg's own `#!/bin/sh` stub, so it reads the hook script into a subshell rather than starting
 * a second sh: one process fewer per commit.
 */
function localBlock(hook: HookName, created: boolean): string[] {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  return [
    BEGIN,
    ...(created ? [CREATED] : []),
    `(CG_NODE=${q(process.execPath)}; CG_BIN=${q(path.join(PACKAGE_ROOT, 'bin', 'cg.js'))}; set -- ${hook} "$@"; . ${q(path.join(PACKAGE_ROOT, 'hooks', 'cg-hook.sh'))}) || true`,
    END,
  ];
}

function portableBlock(hook: HookName, created: boolean): string[] {
  return [BEGIN, ...(created ? [CREATED] : []), portableCommand(hook, '"$@"'), END];
}

function ownStub(hook: HookName, chained: boolean): string {
  const lines = ['#!/bin/sh'];
  if (chained) {
    lines.push(`# The hook that was here before cg, run first and unchanged.`);
    lines.push(`"$(dirname "$0")/${hook}${ORIG_SUFFIX}" "$@"`);
    lines.push('status=$?');
  }
  lines.push(...localBlock(hook, !chained));
  if (chained) lines.push('exit $status');
  return `${lines.join('\n')}\n`;
}

function hasBlock(text: string): boolean {
  return text.includes(BEGIN) && text.includes(END);
}

function removeBlock(text: string): string {
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END, start);
  if (start < 0 || end < 0) return text;
  let cut = end + END.length;
  if (text[cut] === '\n') cut++;
  return text.slice(0, start) + text.slice(cut);
}

/** A script with cg's block as its first command: after the shebang line when there is one. */
function insertBlock(text: string, block: string[]): string {
  const shebang = text.startsWith('#!') ? text.slice(0, text.indexOf('\n') + 1 || text.length) : '';
  const sep = shebang && !shebang.endsWith('\n') ? '\n' : '';
  return `${shebang}${sep}${block.join('\n')}\n${text.slice(shebang.length)}`;
}

/** Beside the hooks git runs: in the common git directory, shared by linked worktrees as the hooks are. */
function recordFile(root: string): string {
  return path.resolve(root, git(root, ['rev-parse', '--git-common-dir']), RECORD);
}

function readRecord(root: string): InstallRecord | null {
  try {
    return JSON.parse(fs.readFileSync(recordFile(root), 'utf8')) as InstallRecord;
  } catch {
    return null;
  }
}

const MANAGER_NAMES: Record<HookManager, string> = {
  git: 'git (.git/hooks)', 'hooks-path': 'core.hooksPath', husky: 'husky', lefthook: 'lefthook',
};

export function hooksStatus(root: string): { location: HooksLocation; hooks: HookStatus[] } {
  const location = hooksLocation(root);
  const record = readRecord(root);
  const hooks = HOOK_NAMES.map((hook): HookStatus => {
    const s = location.manager === 'lefthook' ? lefthookStatus(root, hook) : fileStatus(location, hook);
    if (s.state === 'not_installed' && record?.hooks.includes(hook)) {
      s.state = 'removed';
      s.hint = removedHint(record, location, hook);
    }
    return s;
  });
  return { location, hooks };
}

function fileStatus(location: HooksLocation, hook: HookName): HookStatus {
  const file = path.join(location.dir, hook);
  const text = readText(file);
  const chained = fs.existsSync(`${file}${ORIG_SUFFIX}`);
  let state: HookState = 'not_installed';
  if (text !== null && hasBlock(text)) {
    // A portable block names no installation; a local stub names one, which may not be this one.
    state = !text.includes('CG_BIN=') || text.includes(PACKAGE_ROOT) ? 'installed' : 'stale';
  }
  const shared = chained || (text !== null && state !== 'not_installed' && removeBlock(text).replace(/^#!\/bin\/sh\n/, '').trim() !== '');
  const s: HookStatus = { hook, path: file, state, chained, shared };
  if (state === 'stale') s.hint = 'It runs another cg installation: `cg hooks install` points it at this one.';
  return s;
}

function lefthookStatus(root: string, hook: HookName): HookStatus {
  const file = lefthookLocalFile(root);
  const entry = lefthookEntry(file, hook);
  if (entry === null) return { hook, path: file, state: 'not_installed', chained: false, shared: false };
  const hookFile = readText(path.join(gitHooksDir(root), hook));
  const active = hookFile !== null && hookFile.includes('lefthook');
  return {
    hook, path: file, state: active ? 'installed' : 'inactive', chained: false, shared: true,
    ...(active ? {} : { hint: 'lefthook has not written this hook yet: run `lefthook install`.' }),
  };
}

function removedHint(record: InstallRecord, now: HooksLocation, hook: HookName): string {
  const again = '`cg hooks install` puts it back';
  if (record.manager !== now.manager) {
    return `cg installed it for ${MANAGER_NAMES[record.manager]}, but ${MANAGER_NAMES[now.manager]} runs this repository's hooks now `
      + `(its install replaced cg's): ${again} where ${now.manager === 'lefthook' ? 'lefthook reinstalls keep it (lefthook-local.yml)' : 'it runs now'}.`;
  }
  if (now.portable) {
    return `${path.join(now.dir, hook)} no longer has cg's lines (a checkout, a merge or an edit removed them): ${again}; `
      + 'commit the file so every clone keeps it (the lines do nothing where cg is not installed).';
  }
  return `${path.join(now.dir, hook)} is no longer cg's (deleted, or replaced by another tool's install): ${again}.`;
}

export function installHooks(root: string): { location: HooksLocation; hooks: HookStatus[] } {
  const location = hooksLocation(root);
  if (location.manager === 'lefthook') {
    addLefthookEntries(lefthookLocalFile(root), Object.fromEntries(HOOK_NAMES.map((h) => [h, portableCommand(h, '{0}')])));
    syncLefthook(root, gitHooksDir(root));
  } else {
    fs.mkdirSync(location.dir, { recursive: true });
    for (const hook of HOOK_NAMES) installFile(location, hook);
  }
  fs.writeFileSync(recordFile(root), `${JSON.stringify({ manager: location.manager, dir: location.dir, hooks: HOOK_NAMES }, null, 2)}\n`);
  return hooksStatus(root);
}

function installFile(location: HooksLocation, hook: HookName): void {
  const file = path.join(location.dir, hook);
  const text = readText(file);
  const block = (created: boolean) => (location.portable ? portableBlock(hook, created) : localBlock(hook, created));
  try {
    if (text !== null && hasBlock(text)) {
      // Already installed (maybe by a cg at another path, or in the other form): rewrite the block in place.
      const start = text.indexOf(BEGIN);
      const end = text.indexOf(END, start) + END.length;
      writeKeepingMode(file, text.slice(0, start) + block(text.includes(CREATED)).join('\n') + text.slice(end));
    } else if (location.portable) {
      if (text === null) fs.writeFileSync(file, `#!/bin/sh\n${block(true).join('\n')}\n`, { mode: 0o755 });
      else writeKeepingMode(file, insertBlock(text, block(false)));
    } else if (text === null) {
      fs.writeFileSync(file, ownStub(hook, false), { mode: 0o755 });
    } else {
      fs.renameSync(file, `${file}${ORIG_SUFFIX}`);
      fs.writeFileSync(file, ownStub(hook, true), { mode: 0o755 });
    }
  } catch (err) {
    throw new CgError('io', `Cannot install the ${hook} hook in ${location.dir}: ${errorMessage(err)}`,
      'Check that the hooks directory is writable.');
  }
}

export function uninstallHooks(root: string): { location: HooksLocation; hooks: HookStatus[] } {
  const location = hooksLocation(root);
  if (location.manager === 'lefthook') {
    removeLefthookEntries(lefthookLocalFile(root), HOOK_NAMES);
    syncLefthook(root, gitHooksDir(root));
  } else {
    for (const hook of HOOK_NAMES) uninstallFile(path.join(location.dir, hook));
  }
  fs.rmSync(recordFile(root), { force: true });
  return hooksStatus(root);
}

function uninstallFile(file: string): void {
  const orig = `${file}${ORIG_SUFFIX}`;
  const text = readText(file);
  if (text === null || !hasBlock(text)) return;
  if (fs.existsSync(orig)) fs.renameSync(orig, file);
  else if (text.includes(CREATED)) fs.rmSync(file);
  else writeKeepingMode(file, removeBlock(text));
}

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function writeKeepingMode(file: string, text: string): void {
  const mode = fs.statSync(file).mode & 0o7777;
  fs.writeFileSync(file, text);
  fs.chmodSync(file, mode);
}
