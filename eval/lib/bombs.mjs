// Archives that would unpack to far more than any snapshot holds (5 GiB of zeros each), written in
// milliseconds and a few megabytes: gzip members can be concatenated, so one compressed megabyte of
// zeros (about 1 kB) is repeated 5,120 times after the member holding the tar headers. Used by
// test/snapshot.test.ts (refused, memory bounded) and eval/bench-bomb.mjs (how fast).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import * as tar from 'tar';

export const BOMB_BYTES = 5 * 1024 ** 3;

const header = (name, size) => {
  const block = Buffer.alloc(512);
  new tar.Header({ path: name, type: 'File', size, mode: 0o644, mtime: new Date(0) }).encode(block, 0);
  return block;
};
const pad = (n) => Buffer.alloc((512 - (n % 512)) % 512);
const manifest = (bytes) => Buffer.from(JSON.stringify({
  format: 'cg-snapshot', formatVersion: 1, schemaVersion: 9, commit: 'a'.repeat(40), configId: '00000000', generation: 0,
  counts: { files: 0, symbols: 0, edges: 0, vectors: 0 }, members: [{ name: 'index.db', bytes, sha256: '0'.repeat(64) }],
}));
const withManifest = (bytes) => {
  const m = manifest(bytes);
  return [header('manifest.json', m.length), m, pad(m.length)];
};

/** Each kind of bomb: the tar bytes before the zeros, and the refusal reason cg gives. */
export const BOMBS = {
  // The manifest declares a small database; its tar header says 5 GiB.
  undeclared: { reason: 'size', head: () => [...withManifest(1000), header('index.db', BOMB_BYTES)] },
  // The manifest declares the 5 GiB honestly, from an archive of 5 MB.
  declared: { reason: 'bomb', head: () => [...withManifest(BOMB_BYTES), header('index.db', BOMB_BYTES)] },
  // A well-formed small archive whose gzip stream goes on with 5 GiB after the tar's end.
  trailing: { reason: 'bomb', head: () => [...withManifest(1000), header('index.db', 1000), Buffer.alloc(1000), pad(1000), Buffer.alloc(1024)] },
  // A 5 GiB manifest.
  manifest: { reason: 'bomb', head: () => [header('manifest.json', BOMB_BYTES)] },
  // A 5 GiB database before any manifest.
  unordered: { reason: 'order', head: () => [header('index.db', BOMB_BYTES)] },
};

/** Writes the bomb `kind` into `dir`; returns its path. */
export function writeBomb(dir, kind) {
  const file = path.join(dir, `bomb-${kind}.tar.gz`);
  const zeros = zlib.gzipSync(Buffer.alloc(1 << 20));
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(fd, zlib.gzipSync(Buffer.concat(BOMBS[kind].head())));
    for (let i = 0; i < BOMB_BYTES / (1 << 20); i++) fs.writeSync(fd, zeros);
  } finally {
    fs.closeSync(fd);
  }
  return file;
}

/**
 * The peak resident memory of this process, in MB: VmHWM, the high-water mark of its own address
 * space. (getrusage's maxrss is not that: Linux carries it across exec from the forked parent, so a
 * child of a 100 MB test worker reports at least 100 MB whatever it does.)
 */
export const PEAK_RSS = `
import { readFileSync } from 'node:fs';
const peakRssMb = () => {
  try { return Number(/VmHWM:\\s*(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024; }
  catch { return process.resourceUsage().maxRSS / 1024; }
};`;

/**
 * Runs verifySnapshot (dist/) on `file` in a child process and reports how it ended, how long it took
 * and the child's peak resident memory: the measure of a bounded unpack is the whole process's.
 */
export const CHILD = `${PEAK_RSS}
const { verifySnapshot } = await import(process.argv[1]);
const t = performance.now();
let reason = 'accepted';
try { await verifySnapshot(process.argv[2]); } catch (err) { reason = err.details?.reason ?? err.code ?? String(err); }
process.stdout.write(JSON.stringify({ reason, ms: performance.now() - t, maxRssMb: peakRssMb() }));
`;
