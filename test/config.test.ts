import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, loadConfig, readConfig } from '../src/config/config.js';
import { migrateLegacyConfig } from '../src/config/migrate.js';
import { CgError } from '../src/errors.js';
import { buildIndex } from '../src/indexer/build.js';
import { updateIndex } from '../src/indexer/update.js';
import { createSnapshot } from '../src/snapshot/create.js';
import { git, makeRepo, runCg } from './helpers.js';

// The shared configuration: cg.config.json at the repository root (JSON with comments), checked by a
// schema, read over the defaults; the old .codegraph/config.json still read, with a note, and migrated.

function problem(root: string): CgError {
  try {
    loadConfig(root);
  } catch (err) {
    return err as CgError;
  }
  throw new Error('the configuration was accepted');
}

describe('cg.config.json', () => {
  it('is read over the defaults, with comments and trailing commas, and nothing else is needed', () => {
    const root = makeRepo({ 'cg.config.json': `{
      // generated code is not ours to search
      "exclude": ["gen/"],
      "embeddings": { "quantization": "f16", },
    }\n` });
    const loaded = readConfig(root);
    expect(loaded.file).toBe('cg.config.json');
    expect(loaded.notes).toEqual([]);
    expect(loaded.config.exclude).toEqual(['gen/']);
    expect(loaded.config.embeddings).toEqual({ ...DEFAULT_CONFIG.embeddings, quantization: 'f16' });
    expect(loaded.config.maxFileBytes).toBe(DEFAULT_CONFIG.maxFileBytes);
    expect(readConfig(makeRepo({}))).toEqual({ config: DEFAULT_CONFIG, file: null, notes: [] });
  });

  it('reports unknown keys with the closest valid one, and every wrong value, in one message', () => {
    const root = makeRepo({ 'cg.config.json': JSON.stringify({
      exlude: ['gen/'], workers: -1, hooks: { autoapply: false }, embeddings: { pooling: 'max', zzz: 1 } }) });
    const err = problem(root);
    expect(err.code).toBe('usage');
    expect(err.message).toContain('unknown key "exlude" (did you mean "exclude"?)');
    expect(err.message).toContain('unknown key "hooks.autoapply" (did you mean "hooks.autoApply"?)');
    expect(err.message).toMatch(/unknown key "embeddings.zzz" \(valid here: enabled, model, pooling/);
    expect(err.message).toContain('"workers" must be a non-negative integer');
    expect(err.message).toContain('"embeddings.pooling" must be one of "mean", "cls"');
    expect(problem(makeRepo({ 'cg.config.json': '{ "exclude": [1' })).message).toMatch(/^cg.config.json is not valid JSON: .* at line 1/);
    expect(problem(makeRepo({ 'cg.config.json': '[]' })).message).toBe('cg.config.json: the file must hold a JSON object');
    expect(problem(makeRepo({ 'cg.config.json': '{"snapshots": {"dir": "../elsewhere"}}' })).message)
      .toContain('"snapshots.dir" must be a folder inside the repository');
  });

  it('still reads the old .codegraph/config.json, with a deprecation note, and migrates only what differs from the defaults', () => {
    // What an old `cg init` wrote: every default, and one real setting.
    const old = { ...DEFAULT_CONFIG, exclude: ['gen/'], hooks: { autoApply: false } };
    const root = makeRepo({ '.codegraph/config.json': JSON.stringify(old), 'a.py': 'x = 1\n' }, { git: true });
    const loaded = readConfig(root);
    expect(loaded.file).toBe('.codegraph/config.json');
    expect(loaded.config.exclude).toEqual(['gen/']);
    expect(loaded.notes.join(' ')).toContain('deprecated');
    expect(runCg(['config'], root).stdout).toContain('cg config migrate');

    const res = migrateLegacyConfig(root);
    expect(res.settings).toEqual({ exclude: ['gen/'], hooks: { autoApply: false } });
    expect(JSON.parse(fs.readFileSync(path.join(root, 'cg.config.json'), 'utf8'))).toEqual(res.settings);
    expect(fs.existsSync(path.join(root, '.codegraph', 'config.json'))).toBe(false);
    expect(readConfig(root)).toMatchObject({ file: 'cg.config.json', notes: [], config: loaded.config });
    expect(migrateLegacyConfig(root).removed).toBeNull();

    // Both files: the shared one wins, the old one is named as unread, and migrate will not merge them.
    fs.writeFileSync(path.join(root, '.codegraph', 'config.json'), JSON.stringify({ workers: 1 }));
    expect(readConfig(root).notes.join(' ')).toContain('.codegraph/config.json is not read because cg.config.json exists');
    expect(() => migrateLegacyConfig(root)).toThrow(/cg.config.json already exists/);
  });

  it('is never written by cg init or cg index: the defaults stay defaults', () => {
    const root = makeRepo({ 'a.py': 'x = 1\n' }, { commit: true });
    expect(runCg(['init'], root).code).toBe(0);
    expect(runCg(['index', '-q'], root).code).toBe(0);
    expect(fs.existsSync(path.join(root, 'cg.config.json'))).toBe(false);
    expect(fs.readdirSync(path.join(root, '.codegraph'))).not.toContain('config.json');
    expect(git(root, 'status', '--porcelain')).toBe('');
  });
});

describe('snapshots.dir', () => {
  it('defaults to .codegraph/snapshots; a configured folder gets a .gitignore only when cg creates it', async () => {
    const root = makeRepo({ 'a.py': 'def f():\n    return 1\n', 'artifacts/README.md': 'The team keeps release notes here.\n' }, { commit: true });
    await buildIndex(root);
    const first = await createSnapshot(root);
    expect(path.dirname(first.file)).toBe(path.join(root, '.codegraph', 'snapshots'));
    expect(fs.readdirSync(path.dirname(first.file))).toEqual([path.basename(first.file)]);
    expect(git(root, 'status', '--porcelain')).toBe('');

    for (const [dir, ignoreFile] of [['artifacts', false], ['ci/snapshots', true]] as const) {
      fs.writeFileSync(path.join(root, 'cg.config.json'), JSON.stringify({ snapshots: { dir } }));
      git(root, 'add', '-A');
      git(root, 'commit', '-q', '-m', `snapshots in ${dir}`);
      await updateIndex(root);
      const snap = await createSnapshot(root);
      expect(path.dirname(snap.file)).toBe(path.join(root, dir));
      expect(fs.existsSync(path.join(root, dir, '.gitignore')), dir).toBe(ignoreFile);
    }
    // The team's folder was left as it was, but for the artifact itself.
    expect(fs.readdirSync(path.join(root, 'artifacts')).filter((f) => !f.endsWith('.tar.gz'))).toEqual(['README.md']);
  });
});
