import { emit } from './output.js';
import { withRegistry } from './commands/registry-cmd.js';
import { IndexPool, federatedSearch, type FederatedSearch } from '../registry/federate.js';
import { listProjects, requireCollection, requireProject } from '../registry/projects.js';
import type { FilterType } from '../extract/documents/formats.js';
import { CgError } from '../errors.js';

/** `cg query --collection NAME` / `--all-projects`: the same question to each project's index, merged by reciprocal-rank fusion. */
export async function federatedQuery(text: string, opts: { collection?: string; limit: number; filterType: FilterType; json?: boolean }): Promise<void> {
  await withRegistry(async (db) => {
    const projects = opts.collection ? requireCollection(db, opts.collection).projects.map((n) => requireProject(db, n)) : listProjects(db);
    if (!projects.length) {
      throw new CgError('not_found', opts.collection ? `Collection ${opts.collection} has no projects` : 'No projects are registered',
        'Register projects with `cg project add PATH --collection NAME`.');
    }
    const pool = new IndexPool();
    try {
      const res = await federatedSearch(pool, projects, { query: text, limit: opts.limit, filterType: opts.filterType });
      emit(opts, res, render);
    } finally {
      pool.close();
    }
  });
}

function render(r: FederatedSearch): string {
  const out: string[] = [];
  if (!r.results.length) out.push('No results in any project.');
  for (const h of r.results) {
    out.push(`[${h.project}] ${h.file_path}:${h.start_line}-${h.end_line}  ${h.symbol ?? '(file)'}  ${h.type}, score ${h.score.toFixed(2)}`);
    out.push(`    ${h.rationale}`);
    if (h.content) out.push(h.content.split('\n').slice(0, 12).map((l) => `    | ${l}`).join('\n'));
  }
  const per = r.projects.map((p) => `${p.project}: ${p.status === 'error' || p.status === 'not_found' ? `${p.status} (${p.error?.message})` : `${p.results}`}`);
  out.push(`projects: ${per.join('; ')}`);
  for (const w of r.warnings) out.push(`warning: ${w}`);
  return out.join('\n');
}
