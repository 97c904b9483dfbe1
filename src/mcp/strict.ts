import type { z } from 'zod';

/**
 * Promise 8: an argument a tool does not know is an error, never silently dropped. zod's plain
 * objects strip unknown keys, which turns a misspelt `limt` or a spec's `file_pattern` sent to a tool
 * that lacks it into a silently wrong answer; here every unknown key is refused, naming the closest
 * valid one, and arguments that are not an object at all are refused too.
 */
export interface InputIssue {
  field: string;
  message: string;
  /** The valid argument the unknown one most likely meant. */
  did_you_mean?: string;
}

export type Checked = { ok: true; data: Record<string, unknown> } | { ok: false; message: string; issues: InputIssue[] };

export function checkArguments(tool: string, schema: z.ZodObject, args: unknown): Checked {
  if (args === undefined || args === null) args = {};
  if (typeof args !== 'object' || Array.isArray(args)) {
    const what = Array.isArray(args) ? 'an array' : typeof args;
    return { ok: false, message: `The arguments of ${tool} must be a JSON object of named arguments, not ${what}`,
      issues: [{ field: '(arguments)', message: `expected an object, received ${what}` }] };
  }
  const valid = Object.keys(schema.shape);
  const unknown = Object.keys(args as object).filter((k) => !valid.includes(k));
  if (unknown.length) {
    const issues = unknown.map((k) => {
      const near = closest(k, valid);
      return { field: k, message: `unknown argument${near ? `; did you mean "${near}"?` : ''}`, ...(near ? { did_you_mean: near } : {}) };
    });
    const names = issues.map((i) => `"${i.field}"${i.did_you_mean ? ` (did you mean "${i.did_you_mean}"?)` : ''}`).join(', ');
    return { ok: false, issues,
      message: `${tool} has no argument${unknown.length > 1 ? 's' : ''} ${names}; its arguments are: ${valid.join(', ')}` };
  }
  const parsed = schema.safeParse(args);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ field: i.path.join('.') || '(arguments)', message: i.message }));
    return { ok: false, issues, message: `Invalid arguments for ${tool}: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}` };
  }
  return { ok: true, data: parsed.data as Record<string, unknown> };
}

/**
 * The candidate an unknown name most likely meant: the same name in another spelling (symbolName,
 * symbol-name), else the nearest by edit distance when it is near enough to be a typo, else the one
 * sharing the longest start with it (symbol, symbols → symbol_name); null otherwise.
 */
export function closest(name: string, candidates: readonly string[]): string | null {
  const norm = (s: string) => s.toLowerCase().replace(/[_\-\s]/g, '');
  const same = candidates.find((c) => norm(c) === norm(name));
  if (same) return same;
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(norm(name), norm(c));
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  const allowed = Math.max(1, Math.floor(Math.min(name.length, best?.length ?? 0) / 3));
  if (best !== null && bestDistance <= allowed) return best;
  const shared = (a: string, b: string) => {
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    return i;
  };
  const byStart = candidates.map((c) => ({ c, n: shared(norm(name), norm(c)) })).sort((a, b) => b.n - a.n)[0];
  return byStart && byStart.n >= 5 && byStart.n >= norm(name).length / 2 ? byStart.c : null;
}

/** Levenshtein distance with adjacent transpositions counted as one edit (optimal string alignment). */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}
