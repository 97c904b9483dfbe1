/**
 * From a path as a tool printed it to a repository file. Tools print absolute paths of another
 * machine (`/home/runner/work/shop/shop/src/x.py`), paths relative to wherever they ran, file URLs,
 * Windows paths, Java packages and bare file names, so a path is matched by its trailing components
 * against the repository's files, and frames of installed libraries are kept apart.
 */

export interface RepoFiles {
  root: string;
  files: ReadonlySet<string>;
  /**
   * The files defining a function, method or type of this name or qualified name (`save_user`,
   * `UserService.save`), for signals that name code without a file (log lines, Go profiles).
   * Absent: such references are dropped.
   */
  symbolFiles?(name: string): string[];
}

export interface Resolution {
  /** Repo-relative when it names a repository file, else the path as written. */
  path: string;
  exists: boolean;
}

interface WrittenPath {
  comps: string[];
  absolute: boolean;
  /**
   * For a path inside an installed library (node_modules, site-packages, a toolchain), how many
   * trailing components are the package's own path: a repository file must match all of them, so
   * `site-packages/click/core.py` never lands on the repository's `shop/core.py`.
   */
  libraryTail: number;
}

interface RepoPath {
  path: string;
  comps: string[];
}

/** Names printed where a file would be that are not files. */
const NOT_A_FILE = /^(?:<.*>|\[.*\]|node:.*|native|unknown|Unknown Source|Native Method|index \d+|eval|anonymous)$/;

// One component that starts a library's own tree; what follows it is the package's path.
const LIBRARY_DIRS = new Set(['node_modules', 'bower_components', 'site-packages', 'dist-packages', 'vendor', 'Pods',
  'Carthage', 'checkouts', 'DerivedData', '.m2', '.gradle', '.nvm', '.pyenv', '.rbenv', 'hostedtoolcache',
  'Xcode.app', 'Toolchains']);

export class PathResolver {
  private readonly byName: Map<string, RepoPath[]>;
  private readonly rootComps: string[];
  /** Checkout roots seen in the text (`/home/runner/work/shop/shop` -> ''), learned from confident matches. */
  private readonly prefixes = new Map<string, string | null>();
  private readonly cache = new Map<string, Resolution | null>();

  constructor(private readonly repo: RepoFiles) {
    this.byName = filesByName(repo.files);
    this.rootComps = splitComps(repo.root.replace(/\\/g, '/'));
  }

  /**
   * Learns where the repository's root was on the machine that printed the text, from absolute paths
   * whose last two or more components name exactly one repository file. Then a file under that root
   * that the repository no longer has is reported stale, not matched by its name alone elsewhere.
   */
  learnRoots(written: Iterable<string>): void {
    for (const raw of written) {
      const w = parseWrittenPath(raw);
      if (!w || !w.absolute || w.libraryTail > 0) continue;
      const best = this.bestSuffixMatch(w.comps, 1, true);
      if (!best || best === 'ambiguous' || best.k < 2) continue;
      const key = w.comps.slice(0, w.comps.length - best.k).join('/');
      const repoPrefix = best.file.comps.slice(0, best.file.comps.length - best.k).join('/');
      const known = this.prefixes.get(key);
      this.prefixes.set(key, known === undefined || known === repoPrefix ? repoPrefix : null);
    }
  }

  /** null when the text named no file at all (`<frozen runpy>`, `node:internal/...`, `native`). */
  resolve(written: string, dirHint?: string): Resolution | null {
    const cacheKey = dirHint ? `${dirHint}\0${written}` : written;
    if (this.cache.has(cacheKey)) return this.cache.get(cacheKey)!;
    const result = this.resolveUncached(written, dirHint);
    this.cache.set(cacheKey, result);
    return result;
  }

  private resolveUncached(written: string, dirHint?: string): Resolution | null {
    const w = parseWrittenPath(written);
    if (!w) return null;
    const stale: Resolution = { path: written, exists: false };
    if (w.absolute) {
      const underRoot = this.underKnownRoot(w.comps);
      if (underRoot !== null) return this.repo.files.has(underRoot) ? { path: underRoot, exists: true } : stale;
    } else {
      const rel = w.comps.join('/');
      if (this.repo.files.has(rel)) return { path: rel, exists: true };
    }
    if (dirHint && w.comps.length === 1) {
      const hinted = this.bestSuffixMatch([...splitComps(dirHint), ...w.comps], 1, true);
      if (hinted && hinted !== 'ambiguous') return { path: hinted.file.path, exists: true };
    }
    const best = this.bestSuffixMatch(w.comps, Math.max(1, w.libraryTail), w.absolute);
    return best && best !== 'ambiguous' ? { path: best.file.path, exists: true } : stale;
  }

  /** The repo-relative path of an absolute path under a root known to be the repository's, or null. */
  private underKnownRoot(comps: string[]): string | null {
    if (this.rootComps.length > 0 && startsWith(comps, this.rootComps)) return comps.slice(this.rootComps.length).join('/');
    for (let cut = comps.length - 1; cut > 0; cut--) {
      const repoPrefix = this.prefixes.get(comps.slice(0, cut).join('/'));
      if (repoPrefix === undefined) continue;
      if (repoPrefix === null) return null;
      return [repoPrefix, ...comps.slice(cut)].filter(Boolean).join('/');
    }
    return null;
  }

  /**
   * The repository file sharing the most trailing components with the written path. A match counts
   * when it covers the whole repository path (`/ci/checkout/src/x.py` -> `src/x.py`), the whole written
   * path (`com/acme/Foo.java` -> `src/main/java/com/acme/Foo.java`), or, for an absolute path whose
   * checkout root is unknown, at least a directory and the name (`/app/src/x.py` -> `services/api/src/x.py`).
   * Ties are 'ambiguous': no guess.
   */
  private bestSuffixMatch(comps: string[], minK: number, partial: boolean): { file: RepoPath; k: number } | 'ambiguous' | null {
    const candidates = this.byName.get(comps[comps.length - 1]);
    if (!candidates) return null;
    let best: RepoPath | null = null;
    let bestK = 0;
    let bestRank = -1;
    let tied = false;
    for (const file of candidates) {
      const k = commonTail(comps, file.comps);
      const full = k === file.comps.length;
      if (k < minK || !(full || k === comps.length || (partial && k >= 2))) continue;
      const rank = k * 2 + (full ? 1 : 0);
      if (rank > bestRank) {
        best = file;
        bestK = k;
        bestRank = rank;
        tied = false;
      } else if (rank === bestRank) tied = true;
    }
    if (!best) return null;
    return tied ? 'ambiguous' : { file: best, k: bestK };
  }
}

/** Components of a printed path, or null when it is no file path at all. */
export function parseWrittenPath(raw: string): WrittenPath | null {
  let p = raw.trim();
  if (!p || NOT_A_FILE.test(p)) return null;
  let viaUrl = false;
  const url = /^([a-zA-Z][\w+.-]*):\/\/([^/]*)(.*)$/.exec(p);
  if (url) {
    if (url[1].toLowerCase() === 'file') p = safeDecode(url[3]).replace(/^\/([A-Za-z]:)/, '$1');
    else {
      // webpack://app/./src/x.ts, http://localhost:3000/static/x.js: the path is relative to something unknown
      p = safeDecode(url[3]);
      viaUrl = true;
    }
  }
  p = p.replace(/\\/g, '/');
  const drive = /^[A-Za-z]:\//.test(p);
  const absolute = !viaUrl && (p.startsWith('/') || drive || p.startsWith('~/'));
  const comps = splitComps(drive ? p.slice(2) : p);
  if (comps.length === 0) return null;
  return { comps, absolute, libraryTail: libraryTail(comps) };
}

function splitComps(p: string): string[] {
  const out: string[] = [];
  for (const c of p.split('/')) {
    if (c === '' || c === '.' || c === '~') continue;
    if (c === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      // A leading `..` points outside wherever the tool ran: only the rest can be matched.
      continue;
    }
    out.push(c);
  }
  return out;
}

/** How many trailing components belong to the library a path is inside, or 0 when it is in none. */
function libraryTail(comps: string[]): number {
  for (let i = comps.length - 2; i >= 0; i--) {
    const c = comps[i];
    if (LIBRARY_DIRS.has(c)) return comps.length - i - 1;
    // lib/python3.12/json/decoder.py: the standard library
    if (/^python\d+(?:\.\d+)?$/.test(c) && comps[i - 1] === 'lib') return comps.length - i - 1;
    // ~/.cargo/registry/src/index.crates.io-6f17d22bba15001f/serde-1.0.197/src/de.rs, /rustc/<hash>/library/core/...
    if ((c === '.cargo' || c === '.rustup') && i < comps.length - 1) return Math.max(1, comps.length - i - 4);
    if (c === 'rustc' && i === 0) return Math.max(1, comps.length - 2);
    // $GOPATH/pkg/mod/github.com/x/y@v1.2.3/z.go, /usr/local/go/src/runtime/panic.go, /usr/lib/...
    if (c === 'mod' && comps[i - 1] === 'pkg') return comps.length - i - 1;
    if (i === 0 && c === 'usr' && isSystemTree(comps)) return Math.max(1, comps.length - 2);
    if (c === 'Library' && /^(?:Developer|Frameworks)$/.test(comps[i + 1] ?? '')) return comps.length - i - 2;
  }
  return 0;
}

// /usr/lib/..., /usr/local/go/src/runtime/panic.go; not /usr/src/app, where Docker images put applications
function isSystemTree(comps: string[]): boolean {
  if (/^(?:lib|lib64|share|include)$/.test(comps[1] ?? '')) return true;
  return comps[1] === 'local' && /^(?:lib|lib64|go|share|include|Cellar)$/.test(comps[2] ?? '');
}

function filesByName(files: ReadonlySet<string>): Map<string, RepoPath[]> {
  const cached = nameIndexCache.get(files);
  if (cached && cached.size === files.size) return cached.index;
  const index = new Map<string, RepoPath[]>();
  for (const path of files) {
    const comps = path.split('/');
    const name = comps[comps.length - 1];
    const list = index.get(name);
    if (list) list.push({ path, comps });
    else index.set(name, [{ path, comps }]);
  }
  nameIndexCache.set(files, { size: files.size, index });
  return index;
}

// Callers pass the same set for every query against one index; building the name index is the costly part.
const nameIndexCache = new WeakMap<ReadonlySet<string>, { size: number; index: Map<string, RepoPath[]> }>();

function commonTail(a: string[], b: string[]): number {
  let k = 0;
  while (k < a.length && k < b.length && a[a.length - 1 - k] === b[b.length - 1 - k]) k++;
  return k;
}

function startsWith(comps: string[], prefix: string[]): boolean {
  if (comps.length <= prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (comps[i] !== prefix[i]) return false;
  return true;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
