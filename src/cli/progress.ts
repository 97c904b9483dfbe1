import type { BuildProgress } from '../indexer/build.js';

const LABEL: Record<BuildProgress['phase'], string> = {
  scan: 'Scanning files',
  parse: 'Parsing',
  resolve: 'Resolving references',
  embed: 'Embedding symbols',
  write: 'Writing the index',
};

/**
 * A one-line progress display on stderr when it is a terminal; silent otherwise, so piped and JSON
 * output stay clean.
 */
export function progressReporter(enabled: boolean): { update(p: BuildProgress): void; done(): void } {
  const tty = enabled && process.stderr.isTTY;
  let last = 0;
  let shown = false;
  return {
    update(p) {
      if (!tty) return;
      const now = Date.now();
      if (p.phase === 'parse' && p.done !== p.total && now - last < 80) return;
      last = now;
      const width = 28;
      let line = LABEL[p.phase];
      if (p.phase === 'parse' && p.total > 0) {
        const filled = Math.round((p.done / p.total) * width);
        line = `${line} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${p.done}/${p.total} files`;
      }
      process.stderr.write(`\r\x1b[2K${line}`);
      shown = true;
    },
    done() {
      if (tty && shown) process.stderr.write('\r\x1b[2K');
    },
  };
}
