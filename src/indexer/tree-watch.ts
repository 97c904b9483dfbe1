import path from 'node:path';
import { watch } from 'chokidar';
import { DEFAULT_CONFIG, loadConfig } from '../config/config.js';
import { errorMessage } from '../errors.js';
import { isExcludedDir, RULE_FILES } from '../repo/walk.js';
import type { IgnoreRules } from '../config/ignore.js';
import { BuildOutputRule } from '../repo/vendored.js';
import { walkOptions } from './build.js';
import { openReader } from '../store/db.js';

export interface TreeWatch {
  /** Resolves once the first scan is done, with the number of directories watched. */
  ready: Promise<number>;
  close(): Promise<void>;
}

/**
 * Watches a repository's working tree (chokidar) and hands the repo-relative paths that changed to
 * `onPaths`, in one call per quiet spell of `debounceMs`: for `cg watch`, `cg agent` and `cg serve`,
 * which record them as saves (recordSaves) for the applier. Directories the index leaves out (ignore
 * rules, vendored trees, build output, .git, .codegraph) are not watched at all: in a repository with
 * node_modules that is most of the tree. Files are decided by the applier, which also sees deletions;
 * only files of no language (and no ignore file) are dropped here.
 * A configuration that does not load is reported by the applier; the watch uses the defaults meanwhile.
 */
export function watchTree(root: string, { debounceMs, onPaths, log }:
  { debounceMs: number; onPaths: (paths: string[]) => void; log: (line: string) => void }): TreeWatch {
  let wopts: ReturnType<typeof walkOptions>;
  try {
    wopts = walkOptions(loadConfig(root));
  } catch {
    wopts = walkOptions(structuredClone(DEFAULT_CONFIG));
  }
  const buildOutput = new BuildOutputRule(root, wopts.languageOf);
  const indexedDirs = dirsWithIndexedFiles(root);
  let scanned = false;
  // The first scan asks about every directory at once: each directory's ignore rules are read and
  // compiled once for all of it (Go's standard library: 613 directories watched, ~0.35 s of reading
  // the root's and every parent's ignore files again per directory, on the thread that answers an MCP
  // server's requests). Later questions, one at a time, read the rules as they are then.
  const scanRules = new Map<string, IgnoreRules | null>();
  // A file no language reads is never indexed nor recorded as skipped (a log, an editor's swap file):
  // only the ignore files among them change what the index holds.
  const matters = (rel: string) => wopts.languageOf(path.posix.basename(rel)) !== null || RULE_FILES.test(rel);
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    timer = null;
    const paths = [...pending];
    pending.clear();
    if (paths.length) onPaths(paths);
  };
  const watcher = watch(root, {
    ignoreInitial: true,
    // The walk does not enter a directory through a link (its files are not the repository's): nor does the watch.
    followSymlinks: false,
    ignored: (p: string, stats?: { isDirectory(): boolean; isFile(): boolean }) => {
      const rel = path.relative(root, p).split(path.sep).join('/');
      if (rel === '' || !stats) return false;
      // A directory that holds no indexed file when the watch starts (a locale tree of translations,
      // assets) is not watched: Debian's Django has 2,357 directories, 203 of them with indexed files,
      // and watching all of them took ~80 MiB of resident memory against ~22. One made later is
      // watched, whatever it holds.
      if (stats.isDirectory()) {
        return (!scanned && indexedDirs !== null && !indexedDirs.has(rel))
          || isExcludedDir(root, rel, wopts, buildOutput, scanned ? new Map() : scanRules);
      }
      // Nor are files that could never matter kept track of (chokidar keeps an entry per file it watches).
      return stats.isFile() && !matters(rel);
    },
  });
  watcher.on('all', (_event, file) => {
    const rel = path.relative(root, file).split(path.sep).join('/');
    if (!matters(rel)) return;
    pending.add(rel);
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  });
  // Said once each: a limit that is reached fails every directory after it.
  const said = new Set<string>();
  watcher.on('error', (err) => {
    const line = `watching ${root}: ${watchError(err)}`;
    if (!said.has(line)) log(line);
    said.add(line);
  });
  const ready = new Promise<number>((resolve) => watcher.on('ready', () => {
    scanned = true;
    scanRules.clear();
    // chokidar also lists the root's parent; count only directories inside the repository.
    resolve(Object.keys(watcher.getWatched()).filter((d) => d === root || d.startsWith(root + path.sep)).length);
  }));
  return {
    ready,
    async close() {
      if (timer) clearTimeout(timer);
      timer = null;
      await watcher.close();
    },
  };
}

/**
 * Every directory (repo-relative, '' the root) with an indexed file, or one recorded as skipped, at any
 * depth below it; null without a readable index (then every directory the walk enters is watched).
 */
function dirsWithIndexedFiles(root: string): Set<string> | null {
  let db: ReturnType<typeof openReader>;
  try {
    db = openReader(root);
  } catch {
    return null;
  }
  try {
    const dirs = new Set<string>(['']);
    const paths = db.prepare('SELECT path FROM files WHERE external = 0 UNION ALL SELECT path FROM skipped WHERE is_dir = 0').pluck().all() as string[];
    for (const p of paths) {
      for (let i = p.lastIndexOf('/'); i > 0; i = p.lastIndexOf('/', i - 1)) {
        const dir = p.slice(0, i);
        if (dirs.has(dir)) break;
        dirs.add(dir);
      }
    }
    return dirs;
  } finally {
    db.close();
  }
}

/** What a watch error means for the user, and what to do: the system's limits are the usual cause. */
function watchError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === 'ENOSPC') {
    return 'the system\'s limit on watched directories is reached (Linux: fs.inotify.max_user_watches), so some saves are not '
      + 'seen; raise the limit (sysctl fs.inotify.max_user_watches=524288) or stop other watchers. Commits still reach the index through the git hooks.';
  }
  if (code === 'EMFILE') {
    return 'too many open files for the watch (ulimit -n), so some saves are not seen; raise the limit. Commits still reach the index through the git hooks.';
  }
  return errorMessage(err);
}
