/**
 * The words to grep for a task, as a careful agent picks them: what cg suggests when nothing in the
 * index matched a task well ("grep for these words instead"), and the terms of the scripted
 * grep-and-read agent that eval/token-savings.mjs measures cg against (eval/README.md, "Token savings").
 */
export const MAX_TERMS = 8;

// English stop words and the words commit messages use about any change (they say nothing about where).
const SKIP = new Set((
  'about above after again against also always another anything around because been before being below between both '
  + 'cannot could does doing done down during each either else even every from further have having here itself just '
  + 'many more most much must never only other over same should since some still such than that their them then there '
  + 'these they this those through under until upon very were what when where which while will with within without '
  + 'would your yours into onto instead already able '
  + 'fix fixes fixed fixing bug bugs issue issues add adds added adding support supports supported allow allows allowed '
  + 'make makes made use uses used using change changes changed update updates updated remove removes removed '
  + 'improve improves improved handle handles handled handling correct correctly properly case cases test tests '
  + 'feat refactor chore file files error errors work works working like need needs needed want new now way '
  + 'code behavior behaviour problem problems possible thing things example examples default value values '
  + 'note currently previously should').split(' '));

/** Identifiers the description names as code: backticked, snake_case, camelCase, dotted or `::` parts. */
function identifiers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/`([^`]+)`/g)) for (const w of m[1].split(/[^A-Za-z0-9_$]+/)) if (w.length > 2) out.push(w);
  for (const w of text.match(/[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)*/g) ?? []) {
    const parts = w.split(/\.|::|->/);
    for (const p of parts) if (p.length > 2 && (/_|[a-z][A-Z]|^[A-Z][a-z0-9]+[A-Z]/.test(p) || (parts.length > 1 && /[a-z]/.test(p)))) out.push(p);
  }
  return out;
}

/** A word cut to the part every inflection shares (grep matches substrings): "templates" -> "template", "caching" -> "cach". */
function wordStem(w: string): string {
  if (w.length > 6 && w.endsWith('ies')) return w.slice(0, -3);
  if (w.length > 5 && w.endsWith('ing')) return w.slice(0, -3);
  if (w.length > 5 && w.endsWith('ed')) return w.slice(0, -2);
  if (w.length > 5 && w.endsWith('es')) return w.slice(0, -2);
  if (w.length > 4 && w.endsWith('s') && !/(ss|us|is)$/.test(w)) return w.slice(0, -1);
  return w;
}

/**
 * Up to MAX_TERMS grep patterns for a task, as a careful agent picks them: the identifiers it names
 * first (in order), then the subject line's words, longest first (long words are the specific ones),
 * then the body's; stop words and commit jargon left out, words cut to their common stem (grep matches
 * substrings; `stems: false` keeps the words as written, for people).
 */
export function salientTerms(description: string, opts: { stems?: boolean } = {}): string[] {
  const [subject, ...rest] = description.split('\n');
  const body = rest.join('\n');
  const terms: string[] = [];
  const seen = new Set<string>();
  const add = (t: string) => {
    const key = t.toLowerCase();
    if (terms.length >= MAX_TERMS || seen.has(key)) return;
    // A word already covered by a chosen pattern (grep matches substrings) adds nothing.
    if ([...seen].some((s) => key.includes(s))) return;
    seen.add(key);
    terms.push(t);
  };
  for (const id of [...identifiers(subject), ...identifiers(body)]) add(id);
  for (const part of [subject, body]) {
    const words = [...new Set((part.replace(/\[(file|url)\]/g, ' ').match(/[A-Za-z][A-Za-z0-9]{3,}/g) ?? []).map((w) => w.toLowerCase()))]
      .filter((w) => !SKIP.has(w));
    words.sort((a, b) => b.length - a.length);
    for (const w of words) add(opts.stems === false ? w : wordStem(w));
  }
  return terms;
}

