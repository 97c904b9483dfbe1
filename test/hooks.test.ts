import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { git, makeRepo, runCg, ROOT, tempDir } from './helpers.js';

// cg hooks install|uninstall|status on real repositories with git running the hooks.


/** Every file under a directory with its bytes and mode, to prove uninstall restores exactly. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!fs.existsSync(dir)) return out;
  for (const name of fs.readdirSync(dir, { recursive: true }) as string[]) {
    const p = path.join(dir, name);
    const st = fs.statSync(p);
    if (st.isFile()) out[name] = `${(st.mode & 0o777).toString(8)} ${fs.readFileSync(p, 'base64')}`;
  }
  return out;
}

function records(dir: string): string[] {
  const file = path.join(dir, '.codegraph', 'wal', 'changes.log');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

/** An indexed repository whose hooks only record (no background applier), for deterministic checks. */
function indexedRepo(files: Record<string, string> = { 'app.py': 'def main():\n    return 1\n' }): string {
  const dir = makeRepo(files, { commit: true });
  expect(runCg(['index', '-q'], dir).code).toBe(0);
  fs.writeFileSync(path.join(dir, '.codegraph', 'config.json'), JSON.stringify({ hooks: { autoApply: false } }));
  return dir;
}

function commitAll(dir: string, message = 'change', env: NodeJS.ProcessEnv = process.env): string {
  const run = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args],
    { cwd: dir, encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'pipe'] });
  run('add', '-A');
  const res = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid',
    'commit', '-q', '--allow-empty', '-m', message], { cwd: dir, encoding: 'utf8', env });
  return String(res.stderr);
}

describe('cg hooks', () => {
  it('installs four hooks that record each git event, and uninstalls to exactly what was there', () => {
    const dir = indexedRepo();
    const hooksDir = path.join(dir, '.git', 'hooks');
    const before = snapshot(hooksDir);
    const res = runCg(['hooks', 'install', '--json'], dir);
    expect(res.code, res.stderr).toBe(0);
    expect(res.json.hooks.map((h: any) => [h.hook, h.state])).toEqual([
      ['post-commit', 'installed'], ['post-merge', 'installed'], ['post-checkout', 'installed'], ['post-rewrite', 'installed'],
    ]);
    for (const h of ['post-commit', 'post-merge', 'post-checkout', 'post-rewrite']) {
      expect(fs.statSync(path.join(hooksDir, h)).mode & 0o111).not.toBe(0);
    }
    fs.writeFileSync(path.join(dir, 'app.py'), 'def main():\n    return 2\n');
    commitAll(dir);
    git(dir, 'checkout', '-q', '-b', 'topic');
    git(dir, 'commit', '-q', '--amend', '--allow-empty', '-m', 'amended');
    const events = records(dir).map((l) => JSON.parse(l.split(' ').slice(3).join(' ')).event);
    expect(events).toEqual(['post-commit', 'post-checkout', 'post-commit', 'post-rewrite']);
    // Installing twice changes nothing; uninstall leaves the directory as it was.
    runCg(['hooks', 'install'], dir);
    expect(runCg(['hooks', 'uninstall', '--json'], dir).json.hooks.every((h: any) => h.state === 'not_installed')).toBe(true);
    expect(snapshot(hooksDir)).toEqual(before);
  });

  it('chains an existing hook: it still runs, with its arguments and exit status, and is restored byte for byte', () => {
    const dir = indexedRepo();
    const hook = path.join(dir, '.git', 'hooks', 'post-checkout');
    // A failing post-checkout makes git checkout fail (git reports it as status 1): the chain must keep that.
    fs.writeFileSync(hook, '#!/bin/sh\necho "$1 $2 $3" > "$(git rev-parse --show-toplevel)/mine.txt"\nexit 3', { mode: 0o750 });
    const before = snapshot(path.join(dir, '.git', 'hooks'));
    const res = runCg(['hooks', 'install', '--json'], dir);
    expect(res.json.hooks.find((h: any) => h.hook === 'post-checkout')).toMatchObject({ state: 'installed', chained: true });
    expect(spawnSync('git', ['checkout', '-q', '-b', 'other'], { cwd: dir }).status).toBe(1);
    expect(fs.readFileSync(path.join(dir, 'mine.txt'), 'utf8')).toMatch(/^[0-9a-f]{40} [0-9a-f]{40} 1\n$/);
    expect(records(dir)).toHaveLength(1);
    runCg(['hooks', 'uninstall'], dir);
    expect(snapshot(path.join(dir, '.git', 'hooks'))).toEqual(before);
  });

  it('follows core.hooksPath', () => {
    const dir = indexedRepo();
    git(dir, 'config', 'core.hooksPath', '.githooks');
    const res = runCg(['hooks', 'install', '--json'], dir);
    expect(res.json.location.dir).toBe(path.join(dir, '.githooks'));
    commitAll(dir);
    expect(records(dir)).toHaveLength(1);
    runCg(['hooks', 'uninstall'], dir);
    expect(fs.readdirSync(path.join(dir, '.githooks'))).toEqual([]);
  });

  it('works with husky: appends a block to .husky scripts, which husky runs, and removes exactly that block', () => {
    const dir = indexedRepo();
    const env = { ...process.env, HUSKY: '' };
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'husky', 'bin.js')], { cwd: dir, env, stdio: 'ignore' });
    expect(git(dir, 'config', 'core.hooksPath')).toBe('.husky/_');
    const userScript = 'echo "user post-commit ran" > husky-ran.txt'; // no trailing newline, as people write them
    fs.writeFileSync(path.join(dir, '.husky', 'post-commit'), userScript);
    const before = snapshot(path.join(dir, '.husky'));
    const res = runCg(['hooks', 'install', '--json'], dir);
    expect(res.json.location).toEqual({ dir: path.join(dir, '.husky'), husky: true });
    commitAll(dir, 'with husky', env);
    expect(fs.existsSync(path.join(dir, 'husky-ran.txt'))).toBe(true);
    expect(records(dir)).toHaveLength(1);
    runCg(['hooks', 'uninstall'], dir);
    expect(snapshot(path.join(dir, '.husky'))).toEqual(before);
  });

  it('in a repository without an index, the hooks record nothing and print one hint', () => {
    const dir = indexedRepo();
    runCg(['hooks', 'install'], dir);
    fs.rmSync(path.join(dir, '.codegraph'), { recursive: true });
    const stderr = commitAll(dir);
    expect(stderr.trim().split('\n')).toEqual([expect.stringContaining('no index in')]);
    expect(fs.existsSync(path.join(dir, '.codegraph'))).toBe(false);
  });

  it('explains what to do outside a git repository or without git', () => {
    const plain = makeRepo({ 'a.py': 'x = 1\n' });
    const res = runCg(['hooks', 'install', '--json'], plain);
    expect(res.code).toBe(2);
    expect(res.json.error.message).toContain('is not a git repository');
    expect(res.json.error.hint).toContain('cg watch');
    const bin = tempDir('cg-nogit-');
    fs.symlinkSync(process.execPath, path.join(bin, 'node'));
    const noGit = runCg(['hooks', 'status', '--json'], plain, { env: { PATH: bin } });
    expect(noGit.json.error.message).toContain('git is not installed');
  });
});
