/** Repo-relative POSIX path helpers shared by the language entries' import resolvers. */

export function dirOf(p: string): string {
  const i = p.lastIndexOf('/');
  return i < 0 ? '' : p.slice(0, i);
}

export function baseName(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

export function stripExt(p: string): string {
  const base = p.lastIndexOf('/');
  const dot = p.lastIndexOf('.');
  return dot > base + 1 ? p.slice(0, dot) : p;
}

/** Joins and normalises `a/b` + `../c` -> `a/c`; null when the result climbs above the root. */
export function joinPath(dir: string, rel: string): string | null {
  const out: string[] = dir ? dir.split('/') : [];
  for (const part of rel.split('/')) {
    if (!part || part === '.') continue;
    if (part === '..') {
      if (!out.length) return null;
      out.pop();
    } else out.push(part);
  }
  return out.join('/');
}

/** How many leading path segments two paths share: nearer files win ties between candidates. */
export function sharedPrefix(a: string, b: string): number {
  const pa = a.split('/');
  const pb = b.split('/');
  let i = 0;
  while (i < pa.length && i < pb.length && pa[i] === pb[i]) i++;
  return i;
}

/**
 * Every path suffix of each kept file (`a/b/c`, `b/c`, `c`, as `parts` splits it and `sep` joins the
 * parts again) -> the files that end so: includes, requires and module names resolve by suffix when
 * the search path (an include folder, `lib/`, `src/`) is not known.
 */
export function suffixIndex(files: Iterable<string>, parts: (file: string) => string[] | null, sep: string): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const file of files) {
    const p = parts(file);
    if (!p) continue;
    for (let i = 0; i < p.length; i++) {
      const key = p.slice(i).join(sep);
      const list = index.get(key);
      if (list) list.push(file);
      else index.set(key, [file]);
    }
  }
  return index;
}

/** The candidate nearest to `fromPath`: the most leading folders shared, then the shortest path. */
export function nearestTo(candidates: string[], fromPath: string): string {
  return [...candidates].sort((a, b) => sharedPrefix(b, fromPath) - sharedPrefix(a, fromPath) || a.length - b.length)[0];
}
