/**
 * Text to search terms, the same way for what is indexed and for what is asked: words split at
 * underscores and camelCase boundaries (`getTemplateName` -> get, template, name, gettemplatename),
 * lower-cased, stop words and very short tokens dropped, lightly stemmed.
 *
 * Two tokenizers share that shape. `baselineTokenize` is exactly the evaluation's BM25 baseline
 * (../shared/eval/README.md §6), kept unchanged so the baseline is reproduced. `tokenize`, cg's own,
 * adds one repair to the light stemmer (Porter's step 1b): a stem left by cutting `-ing`/`-ed` gets
 * its `e` back when it is a short consonant-vowel-consonant syllable or ends in at/bl/iz, so
 * "saving" meets `save`, "created" meets `create`, "enabled" meets `enable`.
 */

// A common English stop-word list (the one most IR toolkits ship), plus nothing code-specific:
// `self`, `this`, `return` carry little but are kept so queries about them still match.
const STOP_WORDS = new Set((
  'a about above after again against all am an and any are as at be because been before being below between both but by '
  + 'can could did do does doing down during each few for from further had has have having he her here hers herself him '
  + 'himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other '
  + 'our ours ourselves out over own same she should so some such than that the their theirs them themselves then there '
  + 'these they this those through to too under until up very was we were what when where which while who whom why will '
  + 'with would you your yours yourself yourselves').split(' '));

const WORD = /[A-Za-z0-9_]+/g;
const PART = /[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+/g;

/** The baseline's light stemmer (eval README §6). */
export function lightStem(t: string): string {
  if (t.length > 4 && t.endsWith('ies')) return `${t.slice(0, -3)}y`;
  if (t.endsWith('sses')) return t.slice(0, -2);
  if (t.length > 5 && t.endsWith('ing')) return t.slice(0, -3);
  if (t.length > 4 && t.endsWith('ed') && !t.endsWith('eed')) return t.slice(0, -2);
  if (t.length > 3 && t.endsWith('s') && !/(ss|us|is)$/.test(t)) return t.slice(0, -1);
  return t;
}

// One syllable ending consonant-vowel-consonant, the last not w, x or y (Porter's m = 1 and *o).
const SHORT_CVC = /^[^aeiou]*[^aeiou][aeiouy][^aeiouwxy]$/;

/** cg's stemmer: the light stemmer, with the `e` that `-ing`/`-ed` took restored where Porter would. */
export function stem(t: string): string {
  const s = lightStem(t);
  if (s.length === t.length || !/(ing|ed)$/.test(t)) return s;
  return /(at|bl|iz)$/.test(s) || SHORT_CVC.test(s) ? `${s}e` : s;
}

function keep(t: string): boolean {
  if (t.length < 2) return false;
  if (/^\d+$/.test(t) && t.length < 3) return false;
  return !STOP_WORDS.has(t);
}

type Tokenizer = (text: string) => string[];

// Code repeats the same identifiers constantly; splitting each one once is most of tokenizing's cost.
const CACHE_MAX = 200_000;

/** The terms of one identifier, split once per process and kept (a bounded cache). */
function makeWordTerms(stemTerm: (t: string) => string): (word: string) => string[] {
  const cache = new Map<string, string[]>();
  /** The terms one identifier yields (parts, then the whole identifier when it had several). */
  const wordTerms = (word: string): string[] => {
    const parts = word.split('_').flatMap((p) => p.match(PART) ?? []);
    const out: string[] = [];
    for (const p of parts) {
      const t = p.toLowerCase();
      if (keep(t)) out.push(stemTerm(t));
    }
    // The whole identifier too, unstemmed and never a stop word, when it had several parts.
    if (parts.length > 1) out.push(word.toLowerCase());
    return out;
  };
  return (word) => {
    let terms = cache.get(word);
    if (!terms) {
      terms = wordTerms(word);
      if (cache.size >= CACHE_MAX) cache.clear();
      cache.set(word, terms);
    }
    return terms;
  };
}

function makeTokenizer(termsOf: (word: string) => string[]): Tokenizer {
  return (text) => {
    const out: string[] = [];
    for (const word of text.match(WORD) ?? []) for (const t of termsOf(word)) out.push(t);
    return out;
  };
}

const cgWordTerms = makeWordTerms(stem);

/** Search terms of a text, in order, with repeats (term frequency counts). */
export const tokenize: Tokenizer = makeTokenizer(cgWordTerms);

/** The evaluation baseline's terms of a text (eval README §6), for reproducing BM25 only. */
export const baselineTokenize: Tokenizer = makeTokenizer(makeWordTerms(lightStem));

/**
 * tokenize(line) of every line of a text at once: the terms in order, and where each line's terms
 * start (`lineStarts[i]` for line i, 0-based, and one more entry for the end). Words never span lines,
 * so the text is matched once instead of line by line, with no array per line.
 */
export function tokenizeLines(text: string): { terms: string[]; lineStarts: number[] } {
  const terms: string[] = [];
  const lineStarts = [0];
  const re = new RegExp(WORD.source, 'g');
  let newline = text.indexOf('\n');
  for (let m = re.exec(text); m; m = re.exec(text)) {
    for (; newline !== -1 && newline < m.index; newline = text.indexOf('\n', newline + 1)) lineStarts.push(terms.length);
    for (const t of cgWordTerms(m[0])) terms.push(t);
  }
  for (; newline !== -1; newline = text.indexOf('\n', newline + 1)) lineStarts.push(terms.length);
  lineStarts.push(terms.length);
  return { terms, lineStarts };
}

/** Terms as one space-separated string, for the full-text index (its own tokenizer only splits on spaces then). */
export function searchText(text: string): string {
  return tokenize(text).join(' ');
}
