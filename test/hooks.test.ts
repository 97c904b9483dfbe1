import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { buildIndex } from '../src/indexer/build.js';
import { hooksStatus, installHooks, uninstallHooks } from '../src/repo/hooks.js';
import { readLog } from '../src/changes/log.js';
import { CG, git, makeRepo, runCg, ROOT, tempDir } from './helpers.js';

// cg hooks install|uninstall|status on real repositories with git running the hooks, for each way a
// repository runs hooks: plain .git/hooks, husky (default and custom folder), lefthook, a tracked
// core.hooksPath. For each: cg's hook fires; a teammate's fresh clone without cg commits as before;
// after the manager's own reinstall cg's hook still fires, or status says it is gone and how to restore it.

/** A PATH with `cg`, `cg-hook` and lefthook (as a global or project install gives them), and one without cg. */
const BIN = (() => {
  const dir = tempDir('cg-bin-');
  fs.symlinkSync(CG, path.join(dir, 'cg'));
  fs.symlinkSync(path.join(ROOT, 'hooks', 'cg-hook.sh'), path.join(dir, 'cg-hook'));
  return dir;
})();
const TOOLS = (() => {
  const dir = tempDir('cg-tools-');
  fs.symlinkSync(path.join(ROOT, 'node_modules', '.bin', 'lefthook'), path.join(dir, 'lefthook'));
  return dir;
})();
const SYSTEM_PATH = [path.dirname(process.execPath), '/usr/bin', '/bin'].join(':');
const WITH_CG = { ...process.env, PATH: `${BIN}:${TOOLS}:${SYSTEM_PATH}`, HUSKY: '', LEFTHOOK: '' };
const WITHOUT_CG = { ...process.env, PATH: `${TOOLS}:${SYSTEM_PATH}`, HUSKY: '', LEFTHOOK: '' };
// The per-manager tests call install and status in this process (the CLI over them is tested above),
// with the user's PATH: `cg hooks install` runs `lefthook install` from it.
process.env.PATH = WITH_CG.PATH;
process.env.HUSKY = '';
process.env.LEFTHOOK = '';


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
async function indexedRepo(files: Record<string, string> = { 'app.py': 'def main():\n    return 1\n' }): Promise<string> {
  const dir = makeRepo(files, { commit: true });
  await buildIndex(dir);
  fs.writeFileSync(path.join(dir, 'cg.config.json'), JSON.stringify({ hooks: { autoApply: false } }));
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
  it('installs four hooks that record each git event, and uninstalls to exactly what was there', async () => {
    const dir = await indexedRepo();
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
    const first = git(dir, 'rev-parse', 'HEAD').trim();
    git(dir, 'checkout', '-q', '-b', 'topic');
    git(dir, 'commit', '-q', '--amend', '--allow-empty', '-m', 'amended');
    const amended = git(dir, 'rev-parse', 'HEAD').trim();
    // A detached HEAD (its id in .git/HEAD itself), then a branch whose ref is packed (no loose file: git is asked).
    git(dir, 'checkout', '-q', '--detach', first);
    git(dir, 'checkout', '-q', 'topic');
    git(dir, 'pack-refs', '--all');
    git(dir, 'checkout', '-q', 'main');
    const parsed = records(dir).map((l) => JSON.parse(l.split(' ').slice(3).join(' ')));
    expect(parsed.map((r) => r.event)).toEqual(['post-commit', 'post-checkout', 'post-commit', 'post-rewrite', 'post-checkout', 'post-checkout', 'post-checkout']);
    // Each record names the commit HEAD was at when its hook ran.
    expect(parsed.map((r) => r.head)).toEqual([first, first, amended, amended, first, amended, first]);
    // The applier's reader takes every record the shell wrote (checksum and length over cksum's here-document).
    const read = readLog(dir, 0);
    expect(read.problems).toEqual([]);
    expect(read.entries.map((e) => e.record)).toEqual(parsed);
    expect(parsed[1]).toMatchObject({ from: first, to: first, flag: '1' });
    expect(parsed[3]).toMatchObject({ flag: 'amend' });
    // Installing twice changes nothing; uninstall leaves the directory as it was.
    runCg(['hooks', 'install'], dir);
    expect(runCg(['hooks', 'uninstall', '--json'], dir).json.hooks.every((h: any) => h.state === 'not_installed')).toBe(true);
    expect(snapshot(hooksDir)).toEqual(before);
  });

  it('chains an existing hook: it still runs, with its arguments and exit status, and is restored byte for byte', async () => {
    const dir = await indexedRepo();
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

  it('in a repository without an index, the hooks record nothing and print one hint', async () => {
    const dir = await indexedRepo();
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

/** A commit as a person makes it, with the hooks git runs; returns git's exit status and stderr. */
function commit(dir: string, env: NodeJS.ProcessEnv, message = 'change'): { code: number | null; stderr: string } {
  const ident = ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid'];
  execFileSync('git', [...ident, 'add', '-A'], { cwd: dir, env, stdio: 'ignore' });
  const res = spawnSync('git', [...ident, 'commit', '-q', '--allow-empty', '-m', message], { cwd: dir, encoding: 'utf8', env });
  return { code: res.status, stderr: String(res.stderr) };
}

/** A teammate without cg: a fresh clone, the team's hook setup run as `npm install` would, one commit. */
function teammateCommits(origin: string, setup: (clone: string) => void): { clone: string; code: number | null; stderr: string } {
  const clone = path.join(tempDir('cg-clone-'), 'repo');
  execFileSync('git', ['clone', '-q', origin, clone], { env: WITHOUT_CG, stdio: 'ignore' });
  setup(clone);
  fs.writeFileSync(path.join(clone, 'teammate.py'), 'def teammate():\n    return 1\n');
  return { clone, ...commit(clone, WITHOUT_CG, 'teammate') };
}

/** Every file the team shares (tracked after a `git add -A`), as text: none may name this machine. */
function sharedText(dir: string): string {
  execFileSync('git', ['add', '-A'], { cwd: dir, stdio: 'ignore' });
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: dir, encoding: 'utf8' }).split('\0').filter(Boolean);
  return files.map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\n');
}

function expectNoMachinePath(text: string): void {
  for (const p of [ROOT, process.execPath, BIN, os.tmpdir(), os.homedir()]) expect(text).not.toContain(p);
}


function husky(dir: string, env: NodeJS.ProcessEnv, folder?: string): void {
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'husky', 'bin.js'), ...(folder ? [folder] : [])], { cwd: dir, env, stdio: 'ignore' });
}

function state(dir: string, hook = 'post-commit'): { state: string; hint?: string } {
  return hooksStatus(dir).hooks.find((h) => h.hook === hook)!;
}

describe('cg hooks, per hook manager', () => {
  for (const folder of [undefined, '.config/husky']) {
    it(`husky (${folder ?? 'default folder'}): portable lines in its script survive husky's reinstall; a teammate without cg commits`, async () => {
      const dir = await indexedRepo();
      husky(dir, WITH_CG, folder);
      const scripts = path.join(dir, folder ?? '.husky');
      fs.writeFileSync(path.join(scripts, 'post-commit'), 'echo "team post-commit ran" > husky-ran.txt'); // no newline, as people write them
      commit(dir, WITH_CG, 'the team\'s husky setup');
      const before = snapshot(scripts);
      expect(installHooks(dir).location).toEqual({ dir: scripts, manager: 'husky', portable: true });
      expectNoMachinePath(sharedText(dir));

      expect(commit(dir, WITH_CG).code).toBe(0);
      expect(fs.existsSync(path.join(dir, 'husky-ran.txt'))).toBe(true);
      expect(records(dir)).toHaveLength(1);
      husky(dir, WITH_CG, folder); // `npm install` runs husky again: it regenerates only <folder>/_
      expect(commit(dir, WITH_CG).code).toBe(0);
      expect(records(dir)).toHaveLength(2);
      expect(state(dir).state).toBe('installed');

      const mate = teammateCommits(dir, (clone) => husky(clone, WITHOUT_CG, folder));
      expect(mate.code, mate.stderr).toBe(0);
      expect(mate.stderr).toBe('');
      expect(fs.existsSync(path.join(mate.clone, 'husky-ran.txt'))).toBe(true);

      // A checkout of the script as it was before cg: status names the file and the way back.
      execFileSync('git', ['checkout', 'HEAD~2', '--', path.relative(dir, path.join(scripts, 'post-commit'))], { cwd: dir });
      expect(state(dir)).toMatchObject({ state: 'removed', hint: expect.stringContaining('`cg hooks install` puts it back; commit the file') });
      installHooks(dir);
      uninstallHooks(dir);
      expect(snapshot(scripts)).toEqual(before);
    });
  }

  it('lefthook: a cg command in lefthook-local.yml, kept by lefthook install; a teammate without cg commits', async () => {
    const dir = await indexedRepo();
    fs.writeFileSync(path.join(dir, 'lefthook.yml'), 'pre-commit:\n  commands:\n    team:\n      run: echo team pre-commit\n');
    commit(dir, WITH_CG, 'the team\'s lefthook setup');
    // This clone never ran lefthook install: cg does not switch the team's hooks on, and says what to run.
    expect(installHooks(dir).hooks[0]).toMatchObject({ state: 'inactive', hint: 'lefthook has not written this hook yet: run `lefthook install`.' });
    expect(fs.existsSync(path.join(dir, '.git', 'hooks', 'pre-commit'))).toBe(false);
    execFileSync('lefthook', ['install'], { cwd: dir, env: WITH_CG, stdio: 'ignore' });
    const res = hooksStatus(dir);
    expect(res.location).toEqual({ dir, manager: 'lefthook', portable: true });
    expect(res.hooks.map((h) => h.state)).toEqual(['installed', 'installed', 'installed', 'installed']);
    const local = fs.readFileSync(path.join(dir, 'lefthook-local.yml'), 'utf8');
    expect(local).toContain('cg-hook post-commit {0}');
    expectNoMachinePath(sharedText(dir)); // even if the team commits lefthook-local.yml, as this one does

    expect(commit(dir, WITH_CG).code).toBe(0);
    execFileSync('git', ['checkout', '-q', '-b', 'topic'], { cwd: dir, env: WITH_CG, stdio: 'ignore' });
    const events = () => records(dir).map((l) => JSON.parse(l.split(' ').slice(3).join(' ')));
    expect(events().map((e) => e.event)).toEqual(['post-commit', 'post-checkout']);
    expect(events()[1].flag).toBe('1'); // git's arguments reach cg through lefthook's {0}
    execFileSync('lefthook', ['install'], { cwd: dir, env: WITH_CG, stdio: 'ignore' }); // the reinstall
    expect(commit(dir, WITH_CG).code).toBe(0);
    expect(events()).toHaveLength(3);

    const mate = teammateCommits(dir, (clone) => execFileSync('lefthook', ['install'], { cwd: clone, env: WITHOUT_CG, stdio: 'ignore' }));
    expect(mate.code, mate.stderr).toBe(0);
    expect(mate.stderr).not.toMatch(/not found|error/i);

    // Someone rewrites the local configuration: status says cg's entry is gone.
    fs.writeFileSync(path.join(dir, 'lefthook-local.yml'), 'pre-commit:\n  skip: true\n');
    expect(state(dir)).toMatchObject({ state: 'removed' });
    installHooks(dir);
    uninstallHooks(dir);
    expect(fs.readFileSync(path.join(dir, 'lefthook-local.yml'), 'utf8')).toBe('pre-commit:\n  skip: true\n');
  });

  it('plain .git/hooks, later taken over by lefthook: status says cg\'s hooks are gone and where they go now', async () => {
    const dir = await indexedRepo();
    expect(installHooks(dir).location).toMatchObject({ manager: 'git', portable: false });
    const mate = teammateCommits(dir, () => undefined);
    expect(mate.code, mate.stderr).toBe(0);
    fs.writeFileSync(path.join(dir, 'lefthook.yml'), 'post-commit:\n  commands:\n    team:\n      run: "true"\n');
    execFileSync('lefthook', ['install'], { cwd: dir, env: WITH_CG, stdio: 'ignore' });
    expect(fs.readFileSync(path.join(dir, '.git', 'hooks', 'post-commit'), 'utf8')).not.toContain('cg-hook');
    expect(state(dir)).toMatchObject({ state: 'removed', hint: expect.stringContaining('lefthook runs this repository\'s hooks now') });
    installHooks(dir);
    expect(state(dir).state).toBe('installed');
    expect(commit(dir, WITH_CG).code).toBe(0);
    expect(records(dir)).toHaveLength(1);
  });

  it('a tracked core.hooksPath folder: portable lines run before the team\'s hook; a teammate without cg commits', async () => {
    const dir = await indexedRepo();
    fs.mkdirSync(path.join(dir, '.githooks'));
    fs.writeFileSync(path.join(dir, '.githooks', 'post-commit'), '#!/bin/sh\necho team > team-ran.txt\n', { mode: 0o755 });
    git(dir, 'config', 'core.hooksPath', '.githooks');
    commit(dir, WITH_CG, 'the team\'s hooks');
    expect(installHooks(dir).location).toEqual({ dir: path.join(dir, '.githooks'), manager: 'hooks-path', portable: true });
    expect(fs.existsSync(path.join(dir, '.githooks', 'post-commit.cg-orig'))).toBe(false); // tracked files are never renamed
    expectNoMachinePath(sharedText(dir));
    expect(commit(dir, WITH_CG).code).toBe(0);
    expect(records(dir)).toHaveLength(1);
    expect(fs.existsSync(path.join(dir, 'team-ran.txt'))).toBe(true);

    const mate = teammateCommits(dir, (clone) => git(clone, 'config', 'core.hooksPath', '.githooks'));
    expect(mate.code, mate.stderr).toBe(0);
    expect(fs.existsSync(path.join(mate.clone, 'team-ran.txt'))).toBe(true);

    git(dir, 'checkout', 'HEAD~1', '--', '.githooks');
    expect(state(dir)).toMatchObject({ state: 'removed', hint: expect.stringContaining('no longer has cg\'s lines') });
    installHooks(dir);
    uninstallHooks(dir);
    expect(fs.readdirSync(path.join(dir, '.githooks')).sort()).toEqual(['post-commit']);
    expect(fs.readFileSync(path.join(dir, '.githooks', 'post-commit'), 'utf8')).toBe('#!/bin/sh\necho team > team-ran.txt\n');
  });
});
