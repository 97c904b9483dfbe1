import type { BlastRadius } from './blast.js';
import type { RepoMap } from './structure.js';

// Mermaid renderings of impact and structure: pictures a user can paste into a pull request.

/** Mermaid flowchart: dependents point at what they depend on; the targets are highlighted. */
export function renderBlastMermaid(r: BlastRadius, maxNodes = 60): string {
  const ids = new Map<string, string>();
  const node = (name: string) => {
    let id = ids.get(name);
    if (!id) ids.set(name, (id = `n${ids.size}`));
    return id;
  };
  const label = (s: string) => s.replace(/["`]/g, "'");
  const lines = ['flowchart RL'];
  for (const t of r.targets) lines.push(`  ${node(`${t.file}:${t.symbol}`)}["${label(t.symbol)}<br/>${label(t.file)}"]:::target`);
  const deps = [...Object.values(r.direct).flat(), ...r.transitive].slice(0, maxNodes);
  const byName = new Map<string, string>();
  for (const t of r.targets) byName.set(t.symbol, `${t.file}:${t.symbol}`);
  for (const d of deps) byName.set(d.symbol, `${d.file}:${d.symbol}`);
  const seen = new Set<string>();
  for (const d of deps) {
    const key = `${d.file}:${d.symbol}`;
    if (seen.has(key)) continue;
    seen.add(key);
    lines.push(`  ${node(key)}["${label(d.symbol)}<br/>${label(d.file)}"]${d.isTest ? ':::test' : ''}`);
    const via = byName.get(d.via);
    if (via) lines.push(`  ${node(key)} -- ${d.relation} --> ${node(via)}`);
  }
  lines.push('  classDef target fill:#fdd,stroke:#c00', '  classDef test fill:#dfd,stroke:#080');
  if (deps.length < Object.values(r.direct).flat().length + r.transitive.length) lines.push(`  %% ${maxNodes} dependents shown; the JSON answer lists all`);
  return lines.join('\n');
}

/** Mermaid flowchart of a repository map: the files shown, and the calls and imports between them. */
export function renderStructureMermaid(m: RepoMap, maxLinks = 120): string {
  const ids = new Map(m.files.map((f, i) => [f.path, `f${i}`]));
  const lines = ['flowchart LR'];
  for (const f of m.files) lines.push(`  ${ids.get(f.path)}["${f.path.replace(/["`]/g, "'")}"]`);
  for (const l of (m.links ?? []).slice(0, maxLinks)) lines.push(`  ${ids.get(l.from)} --> ${ids.get(l.to)}`);
  if ((m.links?.length ?? 0) > maxLinks) lines.push(`  %% the ${maxLinks} strongest of ${m.links!.length} links shown`);
  return lines.join('\n');
}
