import { examples } from '../args.js';
import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import { CgError, errorMessage } from '../../errors.js';
import { clearRecorded, readRecorded, recordedForQuery, recordRun, recordedPath, saveRecorded } from '../../retrieve/recorded.js';
import { MAX_INPUT_CHARS } from '../../retrieve/signals.js';
import { emit, plural } from '../output.js';
import { openIndexRecovering } from '../repo.js';
import { findRoot } from '../../repo/root.js';

/**
 * `cg signal record -- <command>`: runs a test (or any) command, passes its output through, and keeps
 * the failures and stack frames it names for the next queries (src/retrieve/recorded.ts). Exits with
 * the command's own status, so it can stand in for the command in scripts and hooks.
 */
export function registerSignal(program: Command): void {
  const signal = program.command('signal').description('execution signals kept between queries: record a run, list, clear');
  signal
    .command('record')
    .description('run a command (after --), pass its output through, and keep the failures it names for the next queries; exits with its status')
    .argument('<command...>', 'the command and its arguments, after -- (e.g. cg signal record -- npm test)')
    .option('--repo <dir>', 'repository (default: the one containing the current directory)')
    .addHelpText('after', examples(['cg signal record -- npm test', 'cg signal record -- pytest -x tests/']))
    .action(async (command: string[], opts: { repo?: string }) => {
      // The index first: a run is not wasted on a repository whose places cannot be told apart.
      const { root, db } = await openIndexRecovering(opts.repo);
      try {
        const run = await runTee(command);
        const rec = recordRun(db, root, run.output, command.join(' '), run.exitCode);
        saveRecorded(root, rec);
        process.stderr.write(`cg: kept ${plural(rec.refs.length, 'place')} named by the output of \`${rec.command}\` (exit ${rec.exitCode}) `
          + `for the next queries; each expires when its file changes (\`cg signal list\` shows them, \`cg signal clear\` drops them)\n`);
        process.exitCode = run.exitCode;
      } finally {
        db.close();
      }
    });
  signal
    .command('list')
    .description('the places recorded by `cg signal record`, and which have expired (their files changed)')
    .option('--repo <dir>', 'repository (default: the one containing the current directory)')
    .option('--json', 'print JSON: {recording: {command, exitCode, recordedAt}, signals, expired}')
    .addHelpText('after', examples(['cg signal list', 'cg signal list --json']))
    .action((opts: { repo?: string; json?: boolean }) => {
      const root = findRoot(opts.repo ?? process.cwd());
      const now = recordedForQuery(root);
      const rec = now.recording;
      const body = { recording: rec && { command: rec.command, exitCode: rec.exitCode, recordedAt: rec.recordedAt }, signals: now.signals,
        expired: now.expired };
      emit(opts, body, () => (!rec ? 'No signals recorded (`cg signal record -- <test command>` records some).'
        : [`Recorded from \`${rec.command}\` (exit ${rec.exitCode}) at ${rec.recordedAt}: ${now.signals.length} in use, ${now.expired} expired`,
          ...now.signals.map((s) => `  ${s.kind} ${s.path}${s.line ? `:${s.line}` : ''}${s.symbol ? `  ${s.symbol}` : ''}`)].join('\n')));
    });
  signal
    .command('clear')
    .description('drop the recorded signals')
    .option('--repo <dir>', 'repository (default: the one containing the current directory)')
    .addHelpText('after', examples(['cg signal clear']))
    .action((opts: { repo?: string }) => {
      const root = findRoot(opts.repo ?? process.cwd());
      const had = readRecorded(root) !== null;
      clearRecorded(root);
      process.stdout.write(had ? `Cleared ${recordedPath(root)}\n` : 'No signals were recorded.\n');
    });
}

/** Runs a command with the terminal's stdin, copying its output through while keeping the last MAX_INPUT_CHARS of it. */
function runTee(command: string[]): Promise<{ output: string; exitCode: number }> {
  return new Promise((resolve, reject) => {
    let output = '';
    const keep = (chunk: Buffer, to: NodeJS.WriteStream) => {
      to.write(chunk);
      output += chunk.toString('utf8');
      if (output.length > 2 * MAX_INPUT_CHARS) output = output.slice(output.length - MAX_INPUT_CHARS);
    };
    const child = spawn(command[0], command.slice(1), { stdio: ['inherit', 'pipe', 'pipe'] });
    child.stdout.on('data', (c: Buffer) => keep(c, process.stdout));
    child.stderr.on('data', (c: Buffer) => keep(c, process.stderr));
    child.on('error', (err) => reject(new CgError('usage', `Cannot run ${command[0]}: ${errorMessage(err)}`,
      'Check the command after --, e.g. `cg signal record -- npm test`.')));
    // A command killed by a signal exits 128 + its number, as a shell would report it.
    child.on('close', (code, sig) => resolve({ output, exitCode: code ?? (sig ? 128 + signalNumber(sig) : 1) }));
  });
}

function signalNumber(sig: NodeJS.Signals): number {
  return ({ SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 } as Record<string, number>)[sig] ?? 1;
}
