import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtinModelDir } from '../src/vectors/model.js';
import { makeRepo, ROOT, runCg, tempDir } from './helpers.js';

// cg as an install can leave it: better-sqlite3 never compiled (npm --ignore-scripts, pnpm 10's
// default) and the optional peer @huggingface/transformers absent. Each is a real copy of the package
// whose node_modules lacks that one piece; everything else links to this checkout's install.

/** The package's runtime files in a new folder, with node_modules linked entry by entry except `leaveOut`. */
function installedCopy(leaveOut: (name: string) => 'link' | 'skip' | 'bare'): string {
  const dir = tempDir('cg-pkg-');
  // bin/ and dist/ are copied, not linked: Node resolves a linked module's imports from its real path.
  for (const f of ['bin', 'dist']) fs.cpSync(path.join(ROOT, f), path.join(dir, f), { recursive: true });
  for (const f of ['queries', 'rules', 'train', 'grammars', 'vendor', 'hooks', 'models', 'package.json']) fs.symlinkSync(path.join(ROOT, f), path.join(dir, f));
  const modules = path.join(dir, 'node_modules');
  fs.mkdirSync(modules);
  const names = fs.readdirSync(path.join(ROOT, 'node_modules')).flatMap((n) => (n.startsWith('@')
    ? fs.readdirSync(path.join(ROOT, 'node_modules', n)).map((m) => `${n}/${m}`) : [n]));
  for (const name of names) {
    const how = leaveOut(name);
    if (how === 'skip') continue;
    const from = path.join(ROOT, 'node_modules', name);
    const to = path.join(modules, name);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    if (how === 'link') fs.symlinkSync(from, to);
    else {
      // The package as its tarball installs it, before its install script would have compiled build/.
      fs.mkdirSync(to);
      for (const f of ['package.json', 'lib']) fs.cpSync(path.join(from, f), path.join(to, f), { recursive: true });
    }
  }
  return dir;
}

function runCopy(pkg: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const res = spawnSync(process.execPath, [path.join(pkg, 'bin', 'cg.js'), ...args],
    { cwd, encoding: 'utf8', timeout: 120_000, env: { ...process.env, CG_DEBUG: '', ...env } });
  return { code: res.status, stdout: String(res.stdout), stderr: String(res.stderr) };
}

describe('an incomplete install', () => {
  let repo: string;
  beforeAll(() => {
    repo = makeRepo({ 'app.py': 'def main():\n    return parse_config()\n\ndef parse_config():\n    return {}\n' }, { commit: true });
    expect(runCg(['index', '-q'], repo).code).toBe(0);
  });

  it('without the compiled SQLite binding, says to run npm rebuild better-sqlite3 (not to re-index, not a bug)', () => {
    const pkg = installedCopy((name) => (name === 'better-sqlite3' ? 'bare' : 'link'));
    for (const args of [['status'], ['index'], ['query', 'parse config']]) {
      const res = runCopy(pkg, args, repo);
      expect(res.code, args.join(' ')).toBe(1);
      expect(res.stderr).toContain('native module better-sqlite3 is not built');
      expect(res.stderr).toContain(`Run \`npm rebuild better-sqlite3\` in ${pkg}`);
      expect(res.stderr).not.toMatch(/cg index|bug in cg/);
    }
    const json = JSON.parse(runCopy(pkg, ['status', '--json'], repo).stdout);
    expect(json.error.code).toBe('install');
    // Nor where there is no index yet: `cg index` would fail the same way.
    const fresh = runCopy(pkg, ['status'], makeRepo({ 'a.py': 'x = 1\n' }));
    expect(fresh.stderr).toContain('npm rebuild better-sqlite3');
    expect(fresh.stderr).not.toContain('cg index');
    // The index itself was never touched: the real install still reads it.
    expect(runCg(['status'], repo).code).toBe(0);
  });

  it('without @huggingface/transformers, a configured hub model says how to install it and the index falls back', () => {
    const pkg = installedCopy((name) => (name === '@huggingface/transformers' ? 'skip' : 'link'));
    const models = tempDir('cg-models-');
    fs.cpSync(builtinModelDir(), path.join(models, 'test-org', 'glove'), { recursive: true });
    const hub = makeRepo({ 'app.py': 'def main():\n    return 1\n', 'cg.config.json': '{ "embeddings": { "model": "test-org/glove" } }\n' },
      { commit: true });
    const env = { CG_MODELS_DIR: models };
    const res = runCopy(pkg, ['index', '--json'], hub, env);
    expect(res.code, res.stderr).toBe(0);
    const vectors = JSON.parse(res.stdout).vectors;
    expect(vectors.status).toBe('unavailable');
    expect(vectors.error.message).toContain('@huggingface/transformers, which is not installed');
    expect(vectors.error.hint).toContain('npm install -g @huggingface/transformers@4');
    // The built-in model needs no transformers.js at all.
    const builtin = runCopy(pkg, ['index', '--full', '--json'], repo);
    expect(JSON.parse(builtin.stdout).vectors).toMatchObject({ status: 'ok', embedded: expect.any(Number) });
  });
});
