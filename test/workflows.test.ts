import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ROOT, runCg } from './helpers.js';

/**
 * The GitHub workflows run commands nobody runs locally until a push: every `cg` subcommand and
 * option, `npm run` script and `node`/`bash` script they name must exist here.
 */
const WORKFLOWS = path.join(ROOT, '.github', 'workflows');

interface Step {
  name?: string;
  uses?: string;
  run?: string;
}

function workflow(name: string): { on: unknown; jobs: Record<string, { steps: Step[] }> } {
  return parse(fs.readFileSync(path.join(WORKFLOWS, name), 'utf8'));
}

/** Every simple command of a step's script: lines split at &&, || and ;, comments dropped. */
function commandsOf(run: string): string[][] {
  return run.split('\n').map((l) => l.replace(/(^|\s)#.*$/, '')).flatMap((l) => l.split(/&&|\|\||;/))
    .map((c) => c.trim()).filter(Boolean).map((c) => c.split(/\s+/));
}

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
const helpCache = new Map<string, string>();

/** `cg <words> --help` from the real CLI: the usage line proves the subcommand exists; the text lists its options. */
function cgHelp(words: string[]): string {
  const key = words.join(' ');
  if (!helpCache.has(key)) {
    const res = runCg([...words, '--help'], ROOT);
    expect(res.code, `cg ${key} --help`).toBe(0);
    helpCache.set(key, res.stdout);
  }
  return helpCache.get(key)!;
}

function checkCommand(argv: string[], where: string): void {
  const [cmd, ...rest] = argv;
  if (cmd === 'node' && (rest[0] === 'bin/cg.js' || rest[0] === './bin/cg.js')) return checkCg(rest.slice(1), where);
  if (cmd === 'cg' || (cmd === 'npx' && rest[0] === 'cg')) return checkCg(cmd === 'cg' ? rest : rest.slice(1), where);
  if (cmd === 'node' || cmd === 'bash') {
    expect(fs.existsSync(path.join(ROOT, rest[0])), `${where}: ${cmd} ${rest[0]} exists`).toBe(true);
    return;
  }
  if (cmd === 'npm') {
    if (rest[0] === 'run') expect(pkg.scripts[rest[1]], `${where}: npm run ${rest[1]}`).toBeDefined();
    else if (rest[0] === 'test') expect(pkg.scripts.test, `${where}: npm test`).toBeDefined();
    else expect(['ci', 'install'], `${where}: npm ${rest[0]}`).toContain(rest[0]);
    return;
  }
  throw new Error(`${where}: a command this test does not know how to check: ${argv.join(' ')}`);
}

function checkCg(argsIn: string[], where: string): void {
  // A redirection (`> file`) is the shell's, not cg's.
  const redirect = argsIn.findIndex((a) => a.startsWith('>'));
  const args = redirect >= 0 ? argsIn.slice(0, redirect) : argsIn;
  const words = args.filter((a) => !a.startsWith('-'));
  // The deepest prefix of words that is a command (the rest are arguments such as `latest`).
  let cmd: string[] = [];
  for (let n = Math.min(words.length, 2); n >= 1; n--) {
    const res = runCg([...words.slice(0, n), '--help'], ROOT);
    if (res.code === 0 && res.stdout.includes(`Usage: cg ${words.slice(0, n).join(' ')} `)) {
      cmd = words.slice(0, n);
      break;
    }
  }
  expect(cmd.length, `${where}: cg ${args.join(' ')} names a cg command`).toBeGreaterThan(0);
  const help = cgHelp(cmd);
  for (const flag of args.filter((a) => a.startsWith('--'))) {
    expect(help, `${where}: cg ${cmd.join(' ')} takes ${flag}`).toContain(flag.split('=')[0]);
  }
}

describe('GitHub workflows', () => {
  const files = fs.readdirSync(WORKFLOWS).filter((n) => n.endsWith('.yml'));

  it('are ci.yml, index.yml, eval.yml and pr.yml, each parsing to jobs with steps', () => {
    expect(files.sort()).toEqual(['ci.yml', 'eval.yml', 'index.yml', 'pr.yml']);
    for (const f of files) {
      const w = workflow(f);
      expect(w.on, f).toBeDefined();
      for (const job of Object.values(w.jobs)) expect(job.steps.length, f).toBeGreaterThan(0);
    }
  });

  it('run only cg commands, options, npm scripts and scripts that exist', () => {
    let checked = 0;
    for (const f of files) {
      for (const [jobName, job] of Object.entries(workflow(f).jobs)) {
        for (const step of job.steps) {
          if (!step.run) continue;
          for (const argv of commandsOf(step.run)) {
            checkCommand(argv, `${f} ${jobName} "${step.name ?? step.run}"`);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(8);
  });

  it('ci.yml installs and tests through .ci/run, which runs npm ci and npm test', () => {
    const runs = workflow('ci.yml').jobs.test.steps.filter((s) => s.run).map((s) => s.run!.trim());
    expect(runs).toEqual(['bash .ci/run']);
    const script = fs.readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8');
    expect(script).toMatch(/^npm ci /m);
    expect(script).toMatch(/^npm test$/m);
  });

  it('index.yml restores from the cache, catches up, snapshots, saves to the cache by commit and uploads', () => {
    const steps = workflow('index.yml').jobs.index.steps;
    const at = (pred: (s: Step) => boolean) => steps.findIndex(pred);
    const restoreCache = at((s) => s.uses?.startsWith('actions/cache/restore@') ?? false);
    const restore = at((s) => s.run?.includes('snapshot restore') ?? false);
    const create = at((s) => s.run?.includes('snapshot create') ?? false);
    const save = at((s) => s.uses?.startsWith('actions/cache/save@') ?? false);
    const upload = at((s) => s.uses?.startsWith('actions/upload-artifact@') ?? false);
    expect([restoreCache, restore, create, save, upload].every((i) => i >= 0)).toBe(true);
    expect(restoreCache < restore && restore < create && create < save && save < upload).toBe(true);
    expect(JSON.stringify(steps[save])).toContain('github.sha');
    const checkout = steps.find((s) => s.uses?.startsWith('actions/checkout@')) as Step & { with?: { 'fetch-depth'?: number } };
    expect(checkout.with?.['fetch-depth']).toBe(0);
  });

  it('pr.yml restores the base snapshot, indexes the head, runs cg check against the base and comments the Markdown report', () => {
    const w = workflow('pr.yml') as unknown as { on: Record<string, unknown>; permissions: Record<string, string>; jobs: { check: { steps: (Step & { id?: string; if?: string; with?: Record<string, string> })[] } } };
    expect(Object.keys(w.on)).toEqual(['pull_request']);
    expect(w.permissions['pull-requests']).toBe('write');
    const steps = w.jobs.check.steps;
    const at = (pred: (s: Step) => boolean) => steps.findIndex(pred);
    const restoreCache = at((s) => s.uses?.startsWith('actions/cache/restore@') ?? false);
    const restore = at((s) => s.run?.includes('snapshot restore') ?? false);
    const check = at((s) => s.run?.includes(' check ') ?? false);
    const comment = at((s) => s.uses?.startsWith('actions/github-script@') ?? false);
    expect([restoreCache, restore, check, comment].every((i) => i >= 0)).toBe(true);
    expect(restoreCache < restore && restore < check && check < comment).toBe(true);
    expect(steps[restoreCache].with?.key).toContain('github.event.pull_request.base.sha');
    expect(steps[check].run).toMatch(/--base \$\{\{ github\.event\.pull_request\.base\.sha \}\}.*--format markdown.*> cg-check\.md/);
    expect(steps[check].id).toBe('check');
    // The comment is written whether the gate passed or failed, and replaces cg's earlier comment.
    expect(steps[comment].if).toContain('always()');
    expect(steps[comment].with?.script).toContain("readFileSync('cg-check.md'");
    expect(steps[comment].with?.script).toContain('<!-- cg-check -->');
    const checkout = steps.find((s) => s.uses?.startsWith('actions/checkout@')) as Step & { with?: { 'fetch-depth'?: number } };
    expect(checkout.with?.['fetch-depth']).toBe(0);
  });
});
