/**
 * Translates the RE2 (Go regexp) syntax of gitleaks' rules into JavaScript regular expressions.
 *
 *   re2ToJs('(?i)\\bkey(?-i:ID)')   -> '\\b[kK][eE][yY](?:ID)'
 *
 * Node 20's JavaScript has no inline flag groups, which the rules use throughout: `(?i)` for the rest
 * of the enclosing group, `(?i:…)`, `(?-i:…)` and `(?s:…)`. Case-insensitive parts are spelt out
 * (`k` -> `[kK]`, `[a-f]` -> `[a-fA-F]`), `.` becomes `[^\n]` (or `[\s\S]` under `s`), `\z` becomes
 * `$` (the flags never include `m`) and POSIX classes (`[[:alnum:]]`) become ranges. Everything else
 * the rules use (classes, escapes, lazy and counted quantifiers, groups, alternation, anchors) reads
 * the same in both; named groups (`(?P<alg>…)`) become plain capturing groups. A construct outside this subset throws, so a new rule that needs more is noticed
 * when it is vendored (test/secrets.test.ts compiles every rule).
 */

const POSIX: Record<string, string> = {
  alnum: 'a-zA-Z0-9', alpha: 'a-zA-Z', digit: '0-9', lower: 'a-z', upper: 'A-Z', xdigit: '0-9a-fA-F',
  space: ' \\t\\n\\r\\f\\v', punct: '!-\\/:-@\\[-`{-~', word: '\\w',
};

interface Scope {
  i: boolean;
  s: boolean;
}

export function re2ToJs(src: string): string {
  let out = '';
  // Flags per open group; `(?i)` changes the innermost scope for the rest of it, as RE2 does.
  const stack: Scope[] = [{ i: false, s: false }];
  const top = () => stack[stack.length - 1];
  let p = 0;
  while (p < src.length) {
    const c = src[p];
    if (c === '\\') {
      const [text, next] = escape(src, p, false);
      out += text === '\\z' ? '$' : text === '\\A' ? '^' : text;
      p = next;
    } else if (c === '[') {
      const [text, next] = charClass(src, p, top().i);
      out += text;
      p = next;
    } else if (c === '(') {
      const flags = /^\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)])/.exec(src.slice(p));
      if (src.startsWith('(?:', p)) {
        stack.push({ ...top() });
        out += '(?:';
        p += 3;
      } else if (flags) {
        const scope = { ...top() };
        for (const f of flags[1]) setFlag(scope, f, true, src);
        for (const f of flags[2] ?? '') setFlag(scope, f, false, src);
        if (flags[3] === ')') {
          // `(?i)`: the rest of the current group.
          stack[stack.length - 1] = scope;
        } else {
          stack.push(scope);
          out += '(?:';
        }
        p += flags[0].length;
      } else if (/^\(\?P?<\w+>/.test(src.slice(p))) {
        // A named group captures like a plain one (and keeps its number); the names are not used.
        stack.push({ ...top() });
        out += '(';
        p += /^\(\?P?<\w+>/.exec(src.slice(p))![0].length;
      } else if (src.startsWith('(?', p)) {
        throw new Error(`unsupported group ${src.slice(p, p + 5)}… in ${src}`);
      } else {
        stack.push({ ...top() });
        out += '(';
        p += 1;
      }
    } else if (c === ')') {
      if (stack.length === 1) throw new Error(`unbalanced ) in ${src}`);
      stack.pop();
      out += ')';
      p += 1;
    } else if (c === '.') {
      out += top().s ? '[\\s\\S]' : '[^\\n]';
      p += 1;
    } else if (c === '{') {
      // A counted quantifier is copied whole; a literal brace (`\${`) reads literally in both.
      const q = /^\{\d*(?:,\d*)?\}/.exec(src.slice(p));
      out += q ? q[0] : '\\{';
      p += q ? q[0].length : 1;
    } else if (c === '}') {
      out += '\\}';
      p += 1;
    } else {
      out += top().i && /[a-zA-Z]/.test(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c;
      p += 1;
    }
  }
  if (stack.length !== 1) throw new Error(`unbalanced ( in ${src}`);
  return out;
}

function setFlag(scope: Scope, f: string, on: boolean, src: string): void {
  if (f === 'i') scope.i = on;
  else if (f === 's') scope.s = on;
  else throw new Error(`unsupported flag ${f} in ${src}`);
}

/** One escape sequence from `p` (at the backslash): its JavaScript text and where the next token starts. */
function escape(src: string, p: number, inClass: boolean): [string, number] {
  const n = src[p + 1];
  if (n === undefined) throw new Error(`trailing backslash in ${src}`);
  if (n === 'x') {
    if (!/^\\x[0-9a-fA-F]{2}/.test(src.slice(p, p + 4))) throw new Error(`unsupported escape ${src.slice(p, p + 6)} in ${src}`);
    return [src.slice(p, p + 4), p + 4];
  }
  if (n === 'p' || n === 'P' || n === 'Q' || n === 'C') throw new Error(`unsupported escape \\${n} in ${src}`);
  if (inClass && n === 'b') throw new Error(`unsupported \\b in a class in ${src}`);
  return [`\\${n}`, p + 2];
}

/** A bracket class from `p` (at `[`), letters widened to both cases when `i` is on. */
function charClass(src: string, p: number, i: boolean): [string, number] {
  let q = p + 1;
  let out = '[';
  if (src[q] === '^') {
    out += '^';
    q++;
  }
  // A `]` first in the class is a literal.
  if (src[q] === ']') {
    out += '\\]';
    q++;
  }
  const extra: string[] = [];
  while (q < src.length && src[q] !== ']') {
    if (src.startsWith('[:', q)) {
      const end = src.indexOf(':]', q);
      const name = src.slice(q + 2, end);
      if (end < 0 || !(name in POSIX)) throw new Error(`unsupported class [:${name}:] in ${src}`);
      out += POSIX[name];
      q = end + 2;
      continue;
    }
    let atom: string;
    [atom, q] = src[q] === '\\' ? escape(src, q, true) : [src[q] === '[' ? '\\[' : src[q], q + 1];
    // A range `a-f`: both ends are single characters.
    if (src[q] === '-' && src[q + 1] !== ']' && q + 1 < src.length) {
      let hi: string;
      [hi, q] = src[q + 1] === '\\' ? escape(src, q + 1, true) : [src[q + 1], q + 2];
      out += `${atom}-${hi}`;
      if (i && /^[a-zA-Z]$/.test(atom) && /^[a-zA-Z]$/.test(hi)) extra.push(`${swapCase(atom)}-${swapCase(hi)}`);
      continue;
    }
    out += atom;
    if (i && /^[a-zA-Z]$/.test(atom)) extra.push(swapCase(atom));
  }
  if (src[q] !== ']') throw new Error(`unterminated class in ${src}`);
  // The other cases go first: after a trailing literal `-` they would read as a range.
  const head = out.startsWith('[^') ? '[^' : '[';
  return [`${head}${extra.join('')}${out.slice(head.length)}]`, q + 1];
}

function swapCase(c: string): string {
  return c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
}
