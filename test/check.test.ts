import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCheck } from '../src/check/config.js';
import { git, makeRepo, runCg } from './helpers.js';

/**
 * `cg check` as CI runs it: a real repository with a base branch and a change on top, the real CLI
 * (its exit status is the gate), the base's index made beside the repository (built, or restored from
 * a snapshot of the base), and the configuration in cg.config.json.
 */
const BASE: Record<string, string> = {
  'pkg/__init__.py': '',
  // A cycle the base already has: never reported as new.
  'pkg/x.py': 'from pkg import y\n\n\ndef xf():\n    return y.yf()\n',
  'pkg/y.py': 'from pkg import x\n\n\ndef yf():\n    return 1\n',
  'pkg/core.py': 'def price(n):\n    return n * 2\n',
  'pkg/use1.py': 'from pkg.core import price\n\n\ndef a():\n    return price(1)\n',
  'pkg/use2.py': 'from pkg.core import price\n\n\ndef b():\n    return price(2)\n',
  'pkg/a.py': 'def entry():\n    return 1\n',
};

function commitAll(root: string, message: string): void {
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', message);
}

/** main = BASE; branch feature adds a new cycle (a <-> b), a dead private function, and changes price(). */
function repoWithChange(): string {
  const root = makeRepo(BASE, { commit: true });
  git(root, 'checkout', '-qb', 'feature');
  fs.writeFileSync(path.join(root, 'pkg/b.py'), 'from pkg import a\n\n\ndef bf():\n    return a.entry()\n\n\ndef _orphan():\n    return 2\n');
  fs.writeFileSync(path.join(root, 'pkg/a.py'), 'from pkg import b\n\n\ndef entry():\n    return 1\n\n\ndef loop():\n    return b.bf()\n');
  fs.writeFileSync(path.join(root, 'pkg/core.py'), 'def price(n):\n    return n * 3\n');
  commitAll(root, 'change');
  return root;
}

describe('cg check --base', () => {
  let root: string;
  beforeAll(() => {
    root = repoWithChange();
    expect(runCg(['index', '-q'], root).code).toBe(0);
  });

  it('fails with exit 8 on what the change adds, not on what the base had, and cleans up after itself', () => {
    const r = runCg(['check', '--base', 'main', '--json'], root);
    expect(r.code).toBe(8);
    expect(r.json.failed).toBe(true);
    const rule = (name: string) => r.json.rules.find((x: any) => x.rule === name);
    expect(rule('noNewCycles').findings.map((f: any) => f.subject)).toEqual(['pkg/a.py -> pkg/b.py -> pkg/a.py']);
    expect(rule('noNewDeadCode').findings.map((f: any) => f.subject)).toEqual(['pkg/b.py:_orphan']);
    expect(r.json.base).toMatchObject({ rev: 'main', source: { kind: 'build' } });
    expect(r.json.changedFiles.sort()).toEqual(['pkg/a.py', 'pkg/b.py', 'pkg/core.py']);
    expect(r.json.impact.codeDependents).toBeGreaterThanOrEqual(2);
    expect(git(root, 'worktree', 'list').split('\n')).toHaveLength(1);
  });

  it('follows the levels and thresholds of cg.config.json', () => {
    fs.writeFileSync(path.join(root, 'cg.config.json'), `{
      // the team's gate
      "check": { "noNewCycles": { "level": "off" }, "noNewDeadCode": { "level": "warn" }, "impactNeedsTests": { "threshold": 2 } }
    }`);
    try {
      const r = runCg(['check', '--base', 'main', '--json'], root);
      const status = Object.fromEntries(r.json.rules.map((x: any) => [x.rule, `${x.level} ${x.status}`]));
      // price() has two callers and no test reaches it: over the threshold of 2.
      expect(status).toEqual({ noNewCycles: 'off off', noNewDeadCode: 'warn fail', impactNeedsTests: 'error fail', maxComplexity: 'warn pass' });
      expect(r.code).toBe(8);
      fs.writeFileSync(path.join(root, 'cg.config.json'), '{ "check": { "impactNeedsTests": { "treshold": 2 } } }');
      const bad = runCg(['check'], root);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('Did you mean "threshold"?');
    } finally {
      fs.rmSync(path.join(root, 'cg.config.json'));
    }
  });

  it('writes the pull-request comment: rules, impact and the tests to run', () => {
    const r = runCg(['check', '--base', 'main', '--format', 'markdown'], root);
    expect(r.code).toBe(8);
    expect(r.stdout.startsWith('<!-- cg-check -->\n## cg check: failed')).toBe(true);
    expect(r.stdout).toContain('| ❌ noNewCycles | error | 1 new cycle |');
    expect(r.stdout).toContain('### Tests to run first');
  });
});

describe('cg check, passing', () => {
  it('passes (exit 0) when a test reaches the change, and restores the base from a snapshot when there is one', () => {
    const root = makeRepo({ ...BASE, 'tests/test_core.py': 'from pkg.core import price\n\n\ndef test_price():\n    assert price(1) == 2\n' }, { commit: true });
    fs.writeFileSync(path.join(root, '.gitignore'), 'snapshots/\n');
    commitAll(root, 'ignore snapshots');
    expect(runCg(['index', '-q'], root).code).toBe(0);
    expect(runCg(['snapshot', 'create'], root).code).toBe(0);
    git(root, 'checkout', '-qb', 'feature');
    fs.writeFileSync(path.join(root, 'pkg/core.py'), 'def price(n):\n    return n * 3\n');
    commitAll(root, 'change price');
    expect(runCg(['update', '-q'], root).code).toBe(0);
    const r = runCg(['check', '--base', 'main', '--json'], root);
    expect(r.code).toBe(0);
    expect(r.json.failed).toBe(false);
    expect(r.json.base.source.kind).toBe('snapshot');
    expect(r.json.tests.files.map((t: any) => t.file)).toEqual(['tests/test_core.py']);
    expect(r.json.rules.every((x: any) => x.status === 'pass')).toBe(true);
  });

  it('without --base, counts everything present (the base repository has a cycle)', () => {
    const root = makeRepo(BASE, { commit: true });
    expect(runCg(['index', '-q'], root).code).toBe(0);
    const r = runCg(['check', '--json'], root);
    expect(r.code).toBe(8);
    expect(r.json.base).toBeNull();
    expect(r.json.rules[0].findings[0].subject).toBe('pkg/x.py -> pkg/y.py -> pkg/x.py');
    expect(runCg(['check', '--base', 'no-such-branch'], root).code).toBe(4);
  });
});

describe('check configuration', () => {
  it('has defaults for every rule and refuses wrong values', () => {
    expect(parseCheck({}).impactNeedsTests).toEqual({ level: 'error', threshold: 10, depth: 3 });
    expect(() => parseCheck({ maxComplexity: { level: 'fatal' } })).toThrow(/check\.maxComplexity\.level/);
    expect(() => parseCheck({ noNewCycle: {} })).toThrow(/unknown key "noNewCycle"/);
  });
});
