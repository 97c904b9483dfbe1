import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { CgError, errorMessage } from '../errors.js';
import { PACKAGE_ROOT } from '../paths.js';

/**
 * Installs cg's git hooks without clobbering anyone else's:
 *   - a hooks directory without that hook: cg writes a stub;
 *   - an existing hook: it is moved to `<hook>.cg-orig` and cg's stub runs it first, with the same
 *     arguments, standard input and exit status;
 *   - husky (core.hooksPath = .husky/_): a marked block is appended to `.husky/<hook>` (created if
 *     missing), because husky regenerates `.husky/_` and runs the scripts in `.husky/`.
 * Uninstall undoes exactly that: stubs deleted, originals moved back, blocks cut out (a file cg
 * created is deleted), leaving the bytes and mode that were there before.
 */
export const HOOK_NAMES = ['post-commit', 'post-merge', 'post-checkout', 'post-rewrite'] as const;
export type HookName = (typeof HOOK_NAMES)[number];

const BEGIN = '# >>> cg (CodeGrapher) change-log hook: `cg hooks uninstall` removes this >>>';
const END = '# <<< cg <<<';
const ORIG_SUFFIX = '.cg-orig';
/** In a block: cg created the file, so uninstalling deletes it rather than leaving it empty. */
const CREATED = '# cg-created-file';
/** Before a block: cg added a newline because the file did not end with one. */
const ADDED_NEWLINE = '\n# cg-added-newline\n';

export type HookState = 'installed' | 'not_installed' | 'stale';

export interface HookStatus {
  hook: HookName;
  path: string;
  state: HookState;
  /** cg's stub chains a hook that was there before it. */
  chained: boolean;
  /** The file also holds someone else's hook (husky script, chained original). */
  shared: boolean;
}

export interface HooksLocation {
  dir: string;
  /** husky: blocks go into `.husky/<hook>` scripts. */
  husky: boolean;
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

/** The directory git runs hooks from, honouring core.hooksPath (husky sets it to `.husky/_`). */
export function hooksLocation(root: string): HooksLocation {
  const rel = git(root, ['rev-parse', '--git-path', 'hooks']);
  const dir = path.resolve(root, rel);
  const hooksPath = (() => {
    try {
      return git(root, ['config', '--get', 'core.hooksPath']);
    } catch {
      return '';
    }
  })();
  const huskyDir = /(^|\/)\.husky\/_\/?$/.test(hooksPath) ? path.resolve(root, hooksPath, '..') : null;
  return huskyDir ? { dir: huskyDir, husky: true } : { dir, husky: false };
}

function stubLines(hook: HookName, created = false): string[] {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  return [
    BEGIN,
    ...(created ? [CREATED] : []),
    `CG_NODE=${q(process.execPath)} CG_BIN=${q(path.join(PACKAGE_ROOT, 'bin', 'cg.js'))} sh ${q(path.join(PACKAGE_ROOT, 'hooks', 'cg-hook.sh'))} ${hook} "$@" || true`,
    END,
  ];
}

function ownStub(hook: HookName, chained: boolean): string {
  const lines = ['#!/bin/sh'];
  if (chained) {
    lines.push(`# The hook that was here before cg, run first and unchanged.`);
    lines.push(`"$(dirname "$0")/${hook}${ORIG_SUFFIX}" "$@"`);
    lines.push('status=$?');
  }
  lines.push(...stubLines(hook, !chained));
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
  const before = text.slice(0, start);
  return (before.endsWith(ADDED_NEWLINE) ? before.slice(0, -ADDED_NEWLINE.length) : before) + text.slice(cut);
}

export function hooksStatus(root: string): { location: HooksLocation; hooks: HookStatus[] } {
  const location = hooksLocation(root);
  const hooks = HOOK_NAMES.map((hook): HookStatus => {
    const file = path.join(location.dir, hook);
    const text = readText(file);
    const chained = fs.existsSync(`${file}${ORIG_SUFFIX}`);
    const state: HookState = text !== null && hasBlock(text) ? (text.includes(PACKAGE_ROOT) ? 'installed' : 'stale') : 'not_installed';
    const shared = chained || (text !== null && state !== 'not_installed' && removeBlock(text).replace(/^#!\/bin\/sh\n/, '').trim() !== '');
    return { hook, path: file, state, chained, shared };
  });
  return { location, hooks };
}

export function installHooks(root: string): { location: HooksLocation; hooks: HookStatus[] } {
  const location = hooksLocation(root);
  fs.mkdirSync(location.dir, { recursive: true });
  for (const hook of HOOK_NAMES) {
    const file = path.join(location.dir, hook);
    const text = readText(file);
    if (text !== null && hasBlock(text)) {
      // Already installed (maybe by a cg at another path): point the block at this one.
      const start = text.indexOf(BEGIN);
      const end = text.indexOf(END, start) + END.length;
      writeKeepingMode(file, text.slice(0, start) + stubLines(hook, text.includes(CREATED)).join('\n') + text.slice(end));
      continue;
    }
    try {
      if (location.husky) {
        if (text === null) fs.writeFileSync(file, `${stubLines(hook, true).join('\n')}\n`, { mode: 0o755 });
        else {
          const sep = text.endsWith('\n') || text === '' ? '' : ADDED_NEWLINE;
          writeKeepingMode(file, `${text}${sep}${stubLines(hook).join('\n')}\n`);
        }
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
  return hooksStatus(root);
}

export function uninstallHooks(root: string): { location: HooksLocation; hooks: HookStatus[] } {
  const location = hooksLocation(root);
  for (const hook of HOOK_NAMES) {
    const file = path.join(location.dir, hook);
    const orig = `${file}${ORIG_SUFFIX}`;
    const text = readText(file);
    if (text === null || !hasBlock(text)) continue;
    if (fs.existsSync(orig)) {
      fs.renameSync(orig, file);
      continue;
    }
    if (text.includes(CREATED)) fs.rmSync(file);
    else writeKeepingMode(file, removeBlock(text));
  }
  return hooksStatus(root);
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
