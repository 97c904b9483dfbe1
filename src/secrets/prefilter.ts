/**
 * Faster matching for the rules that start with gitleaks' name prefix, `[\w.-]{0,50}?(?:KEYWORDS)…`
 * (101 of its rules, `generic-api-key` among them). Run as written, such a regex is tried at every
 * position of a text, and each try walks up to 50 word characters looking for a keyword: the two
 * costliest regexes of a scan (`generic-api-key` alone was ~35 % of scanning Go's standard library).
 *
 * A match that starts at p has its keyword group matching at some q with p ≤ q ≤ p + 50 and only
 * `[\w.-]` characters from p to q. So when the group's first occurrence at or after a position is at q,
 * no match starts before max(q − 50, the start of the run of `[\w.-]` characters that ends at q): the
 * regex is tried (sticky) at each position from there to q, in order, and the search goes on after q.
 * That is the same leftmost match, with the same groups, as exec() from the same lastIndex.
 */

/** What ruleFindings needs of a rule's regex (global, with indices). */
export interface RuleMatcher {
  lastIndex: number;
  exec(text: string): RegExpExecArray | null;
}

const PREFIX = '[\\w.-]{0,50}?';
const REACH = 50;

class PrefixedMatcher implements RuleMatcher {
  lastIndex = 0;

  constructor(private readonly sticky: RegExp, private readonly head: RegExp) {}

  exec(text: string): RegExpExecArray | null {
    let from = this.lastIndex;
    while (from <= text.length) {
      this.head.lastIndex = from;
      const h = this.head.exec(text);
      if (!h) break;
      const q = h.index;
      let start = q;
      while (start > from && q - start < REACH && isNameChar(text.charCodeAt(start - 1))) start--;
      for (let p = start; p <= q; p++) {
        this.sticky.lastIndex = p;
        const m = this.sticky.exec(text);
        if (m) {
          this.lastIndex = this.sticky.lastIndex;
          return m;
        }
      }
      from = q + 1;
    }
    this.lastIndex = 0;
    return null;
  }
}

/** `[\w.-]` without the u flag: ASCII letters, digits, `_`, `.`, `-`. */
function isNameChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 45;
}

/**
 * The group that follows the prefix, when the regex starts with it: `(?:…)` up to its closing
 * parenthesis. Null when the source does not start so, or the group refers to other groups
 * (a backreference could not be matched on its own).
 */
export function keywordGroup(source: string): string | null {
  if (!source.startsWith(`${PREFIX}(?:`)) return null;
  let depth = 0;
  let inClass = false;
  for (let i = PREFIX.length; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      if (/[1-9k]/.test(source[i + 1] ?? '')) return null;
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return source.slice(PREFIX.length, i + 1);
  }
  return null;
}

const matchers = new WeakMap<RegExp, RuleMatcher>();

/** The matcher ruleFindings runs for a rule's regex: the prefix's faster search where it applies, else the regex itself. */
export function matcherFor(regex: RegExp): RuleMatcher {
  let m = matchers.get(regex);
  if (!m) {
    // Only the flags the rules are compiled with (src/secrets/rules.ts): `i` or `u` would widen `\w`, `m` move `$`.
    const group = /^(?=.*g)[gds]*$/.test(regex.flags) ? keywordGroup(regex.source) : null;
    m = group ? new PrefixedMatcher(new RegExp(regex.source, `${regex.flags}y`), new RegExp(group, regex.flags.replace('d', ''))) : regex;
    matchers.set(regex, m);
  }
  return m;
}
