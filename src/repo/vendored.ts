import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Build output, told from source by what the repository says rather than by a folder's name alone.
 *
 * `build`, `dist`, `out`, `target` are build output in most projects and real packages in some: Go's
 * standard library has `go/build` and `cmd/dist`, Gradle projects have `buildSrc`-style `build` logic,
 * and a Rust crate may have a `target` module. So a folder with one of these names is left out only
 * when the repository shows it is generated:
 *   - git tracks nothing in it (git-ignored folders are already left out by the ignore rules), or
 *   - it holds a generated marker: a CACHEDIR.TAG (Cargo's target/, many caches), TypeScript build
 *     info or source maps (compiled JavaScript), or source files that all open with a generated header
 *     ("Code generated … DO NOT EDIT", "@generated", webpack's bundle banner).
 * A folder git tracks with none of these markers is indexed, as is any such folder outside git
 * without a marker (a source tree unpacked from a package, such as Debian's golang-1.19-src).
 */
export const BUILD_OUTPUT_NAMES = new Set(['build', 'dist', 'out', 'target', '.build', 'coverage']);

/** How many of a folder's source files are read for a generated header (all of them must have it). */
const HEADER_SAMPLE = 3;
const HEADER_BYTES = 512;
// webpackUniversalModuleDefinition: the UMD wrapper webpack puts first in a library bundle (axios's dist/axios.js).
const GENERATED_HEADER = /Code generated .{0,200}DO NOT EDIT|@generated\b|\bauto-?generated\b|automatically generated|^\/\*{6}\/ |webpackUniversalModuleDefinition/im;
const COMPILED_MARKERS = /\.(tsbuildinfo|js\.map|mjs\.map|cjs\.map|css\.map)$/;
/** A source map under a name of its own (`axios.map` beside `axios.js`) is told by its content: version 3 JSON. */
const SOURCE_MAP = /^\s*\{\s*"version"\s*:\s*3\b/;

export class BuildOutputRule {
  /** Directories (repo-relative) that hold at least one tracked file; null outside git or before anything is tracked. */
  private trackedDirs: Set<string> | null | undefined;

  constructor(private readonly root: string, private readonly languageOf: (fileName: string) => string | null) {}

  /** Why the folder at `rel` (repo-relative, POSIX) is build output, or null when it is to be indexed. */
  reason(rel: string): string | null {
    if (!BUILD_OUTPUT_NAMES.has(rel.slice(rel.lastIndexOf('/') + 1))) return null;
    const tracked = this.tracked();
    if (tracked && !tracked.has(rel)) return 'git tracks nothing in it';
    return this.marker(rel);
  }

  private marker(rel: string): string | null {
    let names: string[];
    try {
      names = fs.readdirSync(path.join(this.root, rel)).sort();
    } catch {
      return null;
    }
    if (names.includes('CACHEDIR.TAG')) return 'it holds a CACHEDIR.TAG';
    const compiled = names.find((n) => COMPILED_MARKERS.test(n));
    if (compiled) return `compiled JavaScript (${compiled})`;
    const map = names.find((n) => n.endsWith('.map') && startMatches(path.join(this.root, rel, n), SOURCE_MAP));
    if (map) return `compiled JavaScript (${map} is a source map)`;
    const sources = names.filter((n) => this.languageOf(n)).slice(0, HEADER_SAMPLE);
    if (sources.length && sources.every((n) => hasGeneratedHeader(path.join(this.root, rel, n)))) {
      return `generated files (${sources[0]} opens with a generated-code header)`;
    }
    return null;
  }

  /** One `git ls-files` per rule, the first time a build-output name is met (most trees have none). */
  private tracked(): Set<string> | null {
    if (this.trackedDirs !== undefined) return this.trackedDirs;
    this.trackedDirs = null;
    if (!fs.existsSync(path.join(this.root, '.git'))) return null;
    let out: string;
    try {
      out = execFileSync('git', ['--no-optional-locks', '-c', 'core.quotePath=false', 'ls-files', '-z', '--cached'],
        { cwd: this.root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 });
    } catch {
      return null; // no git on this machine, or not a work tree: the markers decide
    }
    const dirs = new Set<string>();
    for (const file of out.split('\0')) {
      for (let i = file.lastIndexOf('/'); i > 0; i = file.lastIndexOf('/', i - 1)) {
        const dir = file.slice(0, i);
        if (dirs.has(dir)) break;
        dirs.add(dir);
      }
    }
    // A repository that tracks nothing yet (a fresh `git init`) says nothing about any folder.
    if (dirs.size || out.length) this.trackedDirs = dirs;
    return this.trackedDirs;
  }
}

function hasGeneratedHeader(file: string): boolean {
  return startMatches(file, GENERATED_HEADER);
}

/** Whether the file's first HEADER_BYTES match `pattern` (false when it cannot be read). */
function startMatches(file: string, pattern: RegExp): boolean {
  let fd: number | null = null;
  try {
    fd = fs.openSync(file, 'r');
    const buf = Buffer.alloc(HEADER_BYTES);
    const n = fs.readSync(fd, buf, 0, HEADER_BYTES, 0);
    return pattern.test(buf.toString('utf8', 0, n));
  } catch {
    return false;
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}
