/**
 * The files and lines a unified diff (`git diff`, `diff -u`) changes. Lines are those of the new side
 * (the code as it is now); a deleted file keeps its old lines, since only the old code can name what
 * depended on it. A hunk that only deletes lines marks the line where they were.
 */
export interface DiffFile {
  path: string;
  status: 'added' | 'modified' | 'deleted';
  ranges: [number, number][];
}

export function parseUnifiedDiff(text: string): DiffFile[] {
  const files: DiffFile[] = [];
  let oldPath: string | null = null;
  // A `---` line was just read (its path is null for /dev/null: an added file).
  let header = false;
  let cur: DiffFile | null = null;
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith('--- ')) {
      oldPath = stripPrefix(line.slice(4));
      header = true;
      cur = null;
    } else if (line.startsWith('+++ ') && header) {
      const newPath = stripPrefix(line.slice(4));
      const status = newPath === null ? 'deleted' : oldPath === null ? 'added' : 'modified';
      const p = newPath ?? oldPath;
      if (p) {
        cur = { path: p, status, ranges: [] };
        files.push(cur);
      }
      oldPath = null;
      header = false;
    } else if (line.startsWith('@@') && cur) {
      const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
      if (!m) continue;
      const [start, count] = cur.status === 'deleted' ? [Number(m[1]), Number(m[2] ?? 1)] : [Number(m[3]), Number(m[4] ?? 1)];
      cur.ranges.push([Math.max(1, start), Math.max(1, start) + Math.max(0, count - 1)]);
    }
  }
  // One entry per path: a diff that names a file twice (combined diffs) merges its ranges.
  const byPath = new Map<string, DiffFile>();
  for (const f of files) {
    const prev = byPath.get(f.path);
    if (prev) prev.ranges.push(...f.ranges);
    else byPath.set(f.path, f);
  }
  // Repeated hunks (a diff pasted twice) need looking up once.
  for (const f of byPath.values()) f.ranges = [...new Map(f.ranges.map((r) => [`${r[0]}:${r[1]}`, r])).values()];
  return [...byPath.values()];
}

/** `a/src/x.ts` -> `src/x.ts`; `/dev/null` -> null; a trailing tab and timestamp (diff -u) dropped. */
function stripPrefix(raw: string): string | null {
  let p = raw.split('\t')[0].trim();
  if (p.startsWith('"') && p.endsWith('"')) p = p.slice(1, -1);
  if (p === '/dev/null') return null;
  return p.replace(/^[ab]\//, '');
}
