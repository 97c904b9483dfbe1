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
