import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/config.js';
import { repositoryExcludes } from '../config/ignore.js';
import { readLog } from '../changes/log.js';
import { ruleSet } from '../secrets/rules.js';
import { workingTreeState, type HeadState } from '../repo/git.js';

/**
 * What an index reflects, recorded in its meta table so the next update knows where to start:
 * the commit, the working-tree paths that differed from it, how far the change log was read, and the
 * configuration it was built with.
 */
export interface RepoState {
  head: HeadState;
  /** Paths differing from HEAD when the state was taken; null outside git. */
  dirty: string[] | null;
  /** Change-log offset just past the last complete record at that moment. */
  logEnd: number;
  configHash: string;
  /** The ignore files outside the work tree (core.excludesFile, info/exclude): no change event covers them. */
  excludesHash: string;
}

/** More dirty paths than this are not worth remembering: the next update rescans instead. */
const MAX_DIRTY = 20_000;

export function captureState(root: string, config: Config, logFrom: number): RepoState {
  // Read the log first: records appended after this point describe changes this state may miss.
  const logEnd = readLog(root, logFrom).end;
  const excludesHash = createHash('sha256').update(repositoryExcludes(root).join('\0')).digest('hex').slice(0, 16);
  return { ...workingTreeState(root), logEnd, configHash: configHash(root, config), excludesHash };
}

/**
 * Bumped when the walk's rules change what they leave out (2: build output by what the repository
 * says, not by name; core.excludesFile; 3: source maps by content and webpack's UMD wrapper mark a
 * bundle), so an index built by the old rules is rebuilt.
 */
const WALK_RULES = 3;

/**
 * The configuration that decides what is indexed, the allowlist and the secret rule set: a change to
 * any can change every file's outcome. Thread counts and hook settings do not, so changing them
 * rebuilds nothing. The user's own git exclude files are not part of it (they differ between machines,
 * and snapshots are named by this hash): a change to them rescans instead (excludes_hash, indexer/apply.ts).
 */
export function configHash(root: string, config: Config): string {
  let allow = '';
  try {
    allow = fs.readFileSync(path.join(root, config.secrets.allowlistFile), 'utf8');
  } catch {
    /* no allowlist */
  }
  const { maxFileBytes, exclude, vendorDirs, secrets, externals } = config;
  return createHash('sha256').update(JSON.stringify({ maxFileBytes, exclude, vendorDirs, secrets, externals, walk: WALK_RULES })).update('\0').update(allow)
    .update('\0').update(secrets.enabled ? ruleSet().digest : '').digest('hex').slice(0, 16);
}

export function stateMeta(state: RepoState): Record<string, string | number> {
  const dirty = state.dirty && state.dirty.length <= MAX_DIRTY ? JSON.stringify(state.dirty) : '';
  return {
    indexed_commit: state.head.kind === 'commit' ? state.head.commit : '',
    indexed_branch: state.head.kind === 'commit' || state.head.kind === 'unborn' ? state.head.branch ?? '' : '',
    head_state: state.head.kind,
    dirty_paths: dirty,
    changelog_offset: state.logEnd,
    config_hash: state.configHash,
    excludes_hash: state.excludesHash,
  };
}
