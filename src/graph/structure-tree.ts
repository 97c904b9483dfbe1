import type { RepoMapFile } from './structure.js';

/**
 * A repository map as Bombe §5 get_structure prints it: folders nested, each file's most central
 * definitions indented under it (members under their class) with their PageRank rank, ⚡ on the ten
 * most central, and "⋮ N more …" for the definitions left out. Folders and files come in the order of
 * their most central file, so the core of the code reads first. Needs repoMap's `ranks`.
 */
export const STARRED = 10;

interface Dir {
  name: string;
  dirs: Map<string, Dir>;
  files: RepoMapFile[];
  /** Position of its most central file in the map (for ordering). */
  first: number;
}

export function renderTree(files: RepoMapFile[], opts: { signatures: boolean; base?: string | null }): string {
  const root: Dir = { name: '', dirs: new Map(), files: [], first: 0 };
  files.forEach((f, i) => {
    const rel = opts.base && f.path.startsWith(`${opts.base}/`) ? f.path.slice(opts.base.length + 1) : f.path;
    const parts = rel.split('/');
    let d = root;
    for (const part of parts.slice(0, -1)) {
      let next = d.dirs.get(part);
      if (!next) d.dirs.set(part, (next = { name: part, dirs: new Map(), files: [], first: i }));
      d = next;
    }
    d.files.push(f);
  });
  const out: string[] = [];
  const walk = (d: Dir, indent: string) => {
    const entries: { first: number; dir?: Dir; file?: RepoMapFile }[] = [
      ...[...d.dirs.values()].map((dir) => ({ first: dir.first, dir })),
      ...d.files.map((file) => ({ first: files.indexOf(file), file })),
    ].sort((a, b) => a.first - b.first);
    for (const e of entries) {
      if (e.dir) {
        out.push(`${indent}${e.dir.name}/`);
        walk(e.dir, `${indent}  `);
      } else if (e.file) {
        out.push(`${indent}${e.file.path.split('/').pop()}`);
        for (const s of e.file.symbols) {
          const star = s.rank !== undefined && s.rank <= STARRED ? '⚡ ' : '';
          const what = opts.signatures ? s.signature.replace(/\s*[:{]\s*$/, '') : `${s.kind === 'function' || s.kind === 'method' ? '' : `${s.kind} `}${s.name}`;
          out.push(`${indent}  ${'  '.repeat(s.depth)}${star}${what}${s.rank !== undefined ? `  [rank: ${s.rank}]` : ''}`);
        }
        const hidden = Object.entries(e.file.hidden ?? {}).filter(([, n]) => n > 0);
        if (hidden.length) out.push(`${indent}  ⋮ ${hidden.map(([kind, n]) => `${n} more ${plural(kind, n)}`).join(', ')}`);
      }
    }
  };
  walk(root, '');
  if (files.some((f) => f.symbols.some((s) => s.rank !== undefined && s.rank <= STARRED))) {
    out.push('', `⚡ = Top ${STARRED} by structural importance (PageRank)`);
  }
  return out.join('\n');
}

function plural(kind: string, n: number): string {
  if (n === 1) return kind;
  return kind === 'class' ? 'classes' : kind.endsWith('s') ? `${kind}es` : kind === 'type' ? 'types' : `${kind}s`;
}
