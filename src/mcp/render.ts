import { DEFAULT_MAX_REGIONS, truncationNote, type QueryResponse } from '../retrieve/query.js';
import { plural } from '../words.js';
import { MAX_FILES, type ContextBundle } from '../retrieve/context.js';

/** Markdown renderings of answers, for agents that read prose better than JSON. */
export function renderQuery(r: QueryResponse): string {
  if (r.status === 'empty_results') return `No results. ${r.suggestion ?? ''}`;
  const out: string[] = [];
  for (const e of r.files) {
    out.push(`### ${e.path}:${e.line_range[0]}-${e.line_range[1]} ${e.symbol ?? '(file)'}`);
    out.push(`score ${e.score.toFixed(2)}, confidence ${e.confidence.toFixed(2)}: ${e.rationale}`);
    if (e.excerpt) out.push('```', e.excerpt, '```');
    else if (e.signature) out.push(`\`${e.signature}\``);
  }
  out.push(`${plural(r.files.length, 'place')}, ${r.tokens_used}/${r.token_budget} tokens${r.truncated ? ` (${truncationNote(r.truncated_by, 'token_budget', DEFAULT_MAX_REGIONS)})` : ''}`);
  for (const w of r.warnings) out.push(`warning: ${w}`);
  return out.join('\n');
}

export function renderContext(r: ContextBundle): string {
  const out = [`# ${r.summary}`];
  if (r.relationships.length) out.push('', '## Relations', ...r.relationships.map((x) => `- ${x}`));
  for (const f of r.files) out.push('', `## ${f.path} (${f.form})`, '```', f.text, '```');
  out.push('', `${r.tokens_used}/${r.token_budget} tokens${r.truncated ? `; ${truncationNote(r.truncated_by, 'token_budget', MAX_FILES)}` : ''}`);
  for (const w of r.warnings) out.push(`warning: ${w}`);
  return out.join('\n');
}
