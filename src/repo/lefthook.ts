import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseDocument, type Document } from 'yaml';
import { CgError, errorMessage } from '../errors.js';

/**
 * lefthook owns `.git/hooks/` in the repositories that use it: `lefthook install` (run by its npm
 * postinstall) rewrites every hook file from its configuration. cg therefore adds itself to that
 * configuration instead, as a command named `cg` under each hook in the local configuration file
 * (`lefthook-local.yml`, which lefthook merges over the team's `lefthook.yml` and which teams keep out
 * of git), so every reinstall writes cg's hooks again. The command names no machine path.
 */
const TEAM_CONFIGS = ['lefthook.yml', 'lefthook.yaml', '.lefthook.yml', '.lefthook.yaml', 'lefthook.json', '.lefthook.json',
  'lefthook.toml', '.lefthook.toml', '.config/lefthook.yml', '.config/lefthook.yaml'];
const LOCAL_CONFIGS = ['lefthook-local.yml', 'lefthook-local.yaml', '.lefthook-local.yml', '.lefthook-local.yaml'];
/** The command cg adds under each hook. */
export const LEFTHOOK_COMMAND = 'cg';

/** The repository's lefthook configuration, or null when it does not use lefthook. */
export function lefthookConfig(root: string): string | null {
  const found = TEAM_CONFIGS.find((f) => fs.existsSync(path.join(root, f)));
  return found ? path.join(root, found) : null;
}

/** The local configuration file cg writes: the one that exists, else lefthook-local.yml beside the team's. */
export function lefthookLocalFile(root: string): string {
  const found = LOCAL_CONFIGS.find((f) => fs.existsSync(path.join(root, f)));
  return path.join(root, found ?? LOCAL_CONFIGS[0]);
}

function readDoc(file: string): Document | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const doc = parseDocument(text);
  if (doc.errors.length) {
    throw new CgError('usage', `${file} is not valid YAML: ${doc.errors[0].message.split('\n')[0]}`,
      'Fix the file (lefthook cannot read it either), then run `cg hooks install` again.');
  }
  return doc;
}

/** The `run` line of cg's command under a hook in the local configuration, or null when it has none. */
export function lefthookEntry(file: string, hook: string): string | null {
  const run = readDoc(file)?.getIn([hook, 'commands', LEFTHOOK_COMMAND, 'run']);
  return typeof run === 'string' ? run : null;
}

/** Adds (or replaces) cg's command under each hook; creates the file when there is none. */
export function addLefthookEntries(file: string, entries: Record<string, string>): void {
  const doc = readDoc(file) ?? parseDocument('# Local lefthook configuration (not for git): merged over lefthook.yml.\n');
  for (const [hook, run] of Object.entries(entries)) doc.setIn([hook, 'commands', LEFTHOOK_COMMAND, 'run'], run);
  write(file, doc);
}

/** Removes cg's command under each hook, and whatever it leaves empty; deletes a file left with nothing. */
export function removeLefthookEntries(file: string, hooks: readonly string[]): void {
  const doc = readDoc(file);
  if (!doc) return;
  for (const hook of hooks) {
    if (!doc.hasIn([hook, 'commands', LEFTHOOK_COMMAND])) continue;
    doc.deleteIn([hook, 'commands', LEFTHOOK_COMMAND]);
    if (isEmptyMap(doc.getIn([hook, 'commands']))) doc.deleteIn([hook, 'commands']);
    if (isEmptyMap(doc.getIn([hook]))) doc.deleteIn([hook]);
  }
  if (isEmptyMap(doc.contents)) fs.rmSync(file);
  else write(file, doc);
}

function isEmptyMap(node: unknown): boolean {
  return !!node && typeof node === 'object' && 'items' in node && Array.isArray((node as { items: unknown[] }).items)
    && (node as { items: unknown[] }).items.length === 0;
}

function write(file: string, doc: Document): void {
  try {
    fs.writeFileSync(file, doc.toString());
  } catch (err) {
    throw new CgError('io', `Cannot write ${file}: ${errorMessage(err)}`, 'Check that the file is writable.');
  }
}

/**
 * Runs `lefthook install` so the hook files exist now (lefthook only writes hooks its configuration
 * names), where lefthook already runs this clone's hooks (`hooksDir` has a hook of lefthook's): a
 * clone whose user never installed lefthook's hooks does not get the team's hooks switched on by cg.
 * Returns false when it did not run (not installed here, or no lefthook executable): status then says
 * to run `lefthook install`.
 */
export function syncLefthook(root: string, hooksDir: string): boolean {
  const lefthooks = (f: string) => {
    try {
      return !f.endsWith('.sample') && fs.readFileSync(path.join(hooksDir, f), 'utf8').includes('lefthook');
    } catch {
      return false;
    }
  };
  if (!fs.existsSync(hooksDir) || !fs.readdirSync(hooksDir).some(lefthooks)) return false;
  const local = path.join(root, 'node_modules', '.bin', 'lefthook');
  for (const bin of [local, 'lefthook']) {
    if (bin === local && !fs.existsSync(local)) continue;
    try {
      execFileSync(bin, ['install'], { cwd: root, stdio: 'ignore', timeout: 60_000 });
      return true;
    } catch {
      /* not there, or it failed: try the next, else report */
    }
  }
  return false;
}
