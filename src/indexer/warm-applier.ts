import fs from 'node:fs';
import path from 'node:path';
import { CG_DIR } from '../paths.js';
import { LOG_RELATIVE } from '../changes/log.js';
import { errorMessage } from '../errors.js';
import { processAlive } from '../processes.js';

/**
 * A long-running process that applies changes (`cg serve`, `cg watch`, `cg agent`) announces itself to
 * the git hooks and `cg notify`, so they leave the change-log record to it instead of starting a cold
 * `cg update` each: a warm process applies a one-file change in ~0.1-0.2 s where a new process pays
 * Node's start, cg's modules and the grammars' compilation (~0.4-0.6 s) before the same work, and two
 * appliers would only take turns at the writer lock. The announcement is a file,
 * `.codegraph/warm-applier.json` ({pid, command, since}), rewritten every HEARTBEAT_MS and removed when
 * the process stops. A reader trusts it only while it is fresh (written within STALE_MS) and its process
 * is alive, so a warm applier that was killed stops counting within a minute even if its pid is reused;
 * the record it missed stays in the change log (durable, applied by whoever applies next).
 */
export const WARM_APPLIER_FILE = 'warm-applier.json';
const HEARTBEAT_MS = 15_000;
/** hooks/cg-hook.sh uses the same bound, as `find -mmin -1`. */
const STALE_MS = 60_000;

export interface WarmApplierNote {
  pid: number;
  command: string;
  since: string;
  /** It also records what is saved in the working tree (src/indexer/tree-watch.ts); absent in older notes. */
  watchesTree?: boolean;
}

function noteFile(root: string): string {
  return path.join(root, CG_DIR, WARM_APPLIER_FILE);
}

/** The live warm applier of this repository, if one announced itself and still does; null otherwise. */
export function liveWarmApplier(root: string, now = Date.now()): WarmApplierNote | null {
  try {
    const file = noteFile(root);
    if (now - fs.statSync(file).mtimeMs > STALE_MS) return null;
    const note = JSON.parse(fs.readFileSync(file, 'utf8')) as WarmApplierNote;
    return Number.isInteger(note.pid) && note.pid > 0 && processAlive(note.pid) ? note : null;
  } catch {
    return null;
  }
}

export interface WarmApplier {
  /** The caller appended to the change log itself (recordSaves) and applies that: the growth is not news. */
  ownAppend(): void;
  /** Whether this process holds the announcement now (another live applier's makes it stand by). */
  holding(): boolean;
  /** Stops the heartbeat and the log watch and removes the announcement (if it is still this process's). */
  stop(): void;
}

/**
 * Announces this process as the repository's warm applier and calls `onRecord` whenever the change log
 * grows (a hook or `cg notify` appended a record), so the caller applies it. One process holds the
 * announcement: while another live one does (a second `cg watch`, an agent), this one stands by, checks
 * again at each heartbeat and takes over when that one's lapses. `log` hears about a heartbeat that
 * could not be written (the announcement then lapses and the hooks start appliers again).
 */
export function becomeWarmApplier(root: string, command: string, onRecord: () => void, log: (line: string) => void,
  { watchesTree = false }: { watchesTree?: boolean } = {}): WarmApplier {
  const file = noteFile(root);
  const note: WarmApplierNote = { pid: process.pid, command, since: new Date().toISOString(), watchesTree };
  let holding = false;
  const beat = () => {
    const other = liveWarmApplier(root);
    if (other && other.pid !== process.pid) {
      if (holding) log(`${command}: ${other.command} (pid ${other.pid}) applies the git hooks' records now`);
      holding = false;
      return;
    }
    try {
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, `${JSON.stringify(note)}\n`);
      fs.renameSync(tmp, file);
      holding = true;
    } catch (err) {
      log(`${command}: could not announce itself to the git hooks (${errorMessage(err)}); they start their own appliers`);
    }
  };
  beat();
  const heartbeat = setInterval(beat, HEARTBEAT_MS);
  heartbeat.unref();
  // The log's folder is watched, not the file: the first record creates it, and a watch on a file
  // follows its inode, which a file put in its place would leave behind.
  const logFile = path.join(root, LOG_RELATIVE);
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const size = () => {
    try {
      return fs.statSync(logFile).size;
    } catch {
      return 0;
    }
  };
  // Growth past what this process appended itself is another writer's record.
  let seen = size();
  let watcher: fs.FSWatcher | null = null;
  try {
    watcher = fs.watch(path.dirname(logFile), (_event, name) => {
      if (name && name !== path.basename(logFile)) return;
      const now = size();
      if (now === seen) return;
      seen = now;
      if (holding) onRecord();
    });
    watcher.on('error', (err) => log(`${command}: stopped watching the change log: ${errorMessage(err)}`));
    watcher.unref();
  } catch (err) {
    log(`${command}: cannot watch the change log (${errorMessage(err)}); commits are applied by the hooks' own appliers`);
    clearInterval(heartbeat);
    fs.rmSync(file, { force: true });
    return { ownAppend: () => undefined, holding: () => false, stop: () => undefined };
  }
  return {
    ownAppend() {
      seen = size();
    },
    holding: () => holding,
    stop() {
      clearInterval(heartbeat);
      watcher?.close();
      try {
        const current = JSON.parse(fs.readFileSync(file, 'utf8')) as WarmApplierNote;
        if (current.pid === process.pid) fs.rmSync(file, { force: true });
      } catch {
        // Gone already, or another process's now.
      }
    },
  };
}
