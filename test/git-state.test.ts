import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { workingTreeState } from '../src/repo/git.js';
import { git, makeRepo, runCg } from './helpers.js';

/** The untracked and changed paths `git status --untracked-files=all` lists, in its order: what workingTreeState must give. */
function statusAll(root: string): string[] {
  return git(root, 'status', '--porcelain=v2', '-z', '--untracked-files=all', '--no-renames').split('\0').filter(Boolean)
    .flatMap((e) => (e.startsWith('? ') ? [e.slice(2)] : e.startsWith('1 ') ? [e.split(' ').slice(8).join(' ')] : []));
}

describe('the working tree as the applier sees it', () => {
  it('lists every untracked file under new directories as `git status --untracked-files=all` does, in its order', () => {
    const root = makeRepo({ 'a.py': 'x = 1\n', '.gitignore': 'ignored/\n*.log\n', 'zz/keep.py': 'y = 2\n' }, { git: true, commit: true });
    const write = (rel: string, text = 'z = 3\n') => {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
    };
    // No new directory: git status alone.
    write('top.py');
    fs.appendFileSync(path.join(root, 'a.py'), 'x = 2\n');
    expect(workingTreeState(root).dirty).toEqual(statusAll(root));
    expect(workingTreeState(root).dirty).toEqual(['a.py', 'top.py']);
    // New directories: nested ones, ignored files inside them, names that are glob patterns, one with
    // ignored files only (not listed), a nested repository (listed as itself), and one beside a tracked folder.
    write('new/sub/deep/x.py');
    write('new/y.log');
    write('new/sub/w.py');
    write('ignored/z.py');
    write('onlylog/q.log');
    write('[x]/glob.py');
    write('*/star.py');
    write('zz/new/n.py');
    write('nested/inner/f.txt');
    git(path.join(root, 'nested', 'inner'), 'init', '-q');
    write('nested/k.py');
    const all = statusAll(root);
    expect(all).toContain('new/sub/deep/x.py');
    expect(all).toContain('nested/inner/');
    expect(workingTreeState(root).dirty).toEqual(all);
    expect(workingTreeState(root).head).toMatchObject({ kind: 'commit' });
  });

  it('an update indexes the files of a new directory', () => {
    const root = makeRepo({ 'a.py': 'def one():\n    return 1\n' }, { git: true, commit: true });
    expect(runCg(['index', '-q'], root).code).toBe(0);
    fs.mkdirSync(path.join(root, 'pkg', 'deep'), { recursive: true });
    fs.writeFileSync(path.join(root, 'pkg', 'deep', 'b.py'), 'def brand_new_function():\n    return 2\n');
    const res = runCg(['update', '--json'], root);
    expect(res.code, res.stderr).toBe(0);
    expect(res.json.rounds[0].added).toBe(1);
    expect(runCg(['symbols', 'brand_new_function', '--json'], root).json.symbols.map((s: { file: string }) => s.file)).toEqual(['pkg/deep/b.py']);
  });
});
