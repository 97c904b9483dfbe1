/**
 * Rewrites a Swift file into text the tree-sitter-swift 0.7.1 grammar parses, and parses the same way
 * every time, keeping every offset and line break (so positions still match the file). Comments and
 * string literals are left alone.
 *
 * `#` syntax:
 * - compiler-directive lines (`#if`, `#elseif`, `#else`, `#endif`) become blank: the grammar rejects
 *   them between members, and blanking indexes the declarations of every branch;
 * - `#available(...)` / `#unavailable(...)` become `true`, `#warning(...)` / `#error(...)` /
 *   `#sourceLocation(...)` become blank;
 * - other freestanding macros and literals lose their `#` (`#expect(x)` -> ` expect(x)`, `#file` -> ` file`);
 * - raw strings become strings of blanks (`#"a"b"#` -> `"      "`).
 *
 * Why not leave `#` alone: that grammar's external scanner allocates its state with `calloc(0, ...)`
 * (fixed upstream in 0.7.2), so the raw-string hash count it reads is whatever the heap holds next to it.
 * The first parse in a process happens to see zero; later ones see garbage, and every `#` token then
 * misparses. With no `#` left outside comments and ordinary strings, the scanner never reads that state.
 *
 * Newer syntax the grammar rejects, whose removal changes nothing cg records:
 * - empty attribute arguments (`@Option() var x` -> `@Option   var x`);
 * - typed throws (`throws(ParserError)` -> `throws             `);
 * - `nonisolated(unsafe)` (which the grammar rejects on local variables) -> blank.
 */
export function normalizeForGrammar(source: string): string {
  if (!/[#@]|(?:throws|nonisolated)\s*\(/.test(source)) return source;
  const rewriter = new SwiftRewriter(source);
  rewriter.code(0, false);
  return rewriter.result();
}

const DIRECTIVES = new Set(['if', 'elseif', 'else', 'endif']);
const AVAILABILITY = new Set(['available', 'unavailable']);
const DIAGNOSTICS = new Set(['warning', 'error', 'sourceLocation']);
const IDENT = /[A-Za-z_][A-Za-z0-9_]*/y;
/** `@Name()` / `@Module.Name ( )`: an attribute with an empty argument list; group 1 is the parentheses. */
const EMPTY_ATTRIBUTE_ARGS = /@[A-Za-z_][A-Za-z0-9_.]*(\(\s*\))/y;
/** `throws(E)`, `nonisolated(unsafe)`: keywords whose argument the grammar does not know (a word start). */
const KEYWORD_ARGUMENT = /(?:throws|nonisolated)\s*\(/y;

class SwiftRewriter {
  private readonly out: string[];
  private readonly n: number;

  constructor(private readonly src: string) {
    this.out = src.split('');
    this.n = src.length;
  }

  result(): string {
    return this.out.join('');
  }

  /**
   * Walks code from `i`, skipping comments and strings, rewriting `#` syntax. With `inParens`, stops at
   * the `)` that closes an already opened parenthesis and returns its index; otherwise returns the end.
   */
  code(i: number, inParens: boolean): number {
    let depth = 0;
    while (i < this.n) {
      const c = this.src[i];
      if (c === '/' && this.src[i + 1] === '/') i = this.lineEnd(i);
      else if (c === '/' && this.src[i + 1] === '*') i = this.blockCommentEnd(i);
      else if (c === '"') i = this.stringEnd(i);
      else if (c === '#') i = this.hash(i);
      else if (c === '@') i = this.attribute(i);
      else if ((c === 't' || c === 'n') && this.wordStart(i)) i = this.keywordArgument(i);
      else if (c === '(') {
        depth++;
        i++;
      } else if (c === ')') {
        if (inParens && depth === 0) return i;
        depth--;
        i++;
      } else i++;
    }
    return i;
  }

  private attribute(i: number): number {
    EMPTY_ATTRIBUTE_ARGS.lastIndex = i;
    const m = EMPTY_ATTRIBUTE_ARGS.exec(this.src);
    if (!m) return i + 1;
    const end = i + m[0].length;
    this.blank(end - m[1].length, end);
    return end;
  }

  private keywordArgument(i: number): number {
    KEYWORD_ARGUMENT.lastIndex = i;
    const m = KEYWORD_ARGUMENT.exec(this.src);
    if (!m) return i + 1;
    const open = i + m[0].length - 1;
    const close = this.code(open + 1, true);
    this.blank(this.src.startsWith('throws', i) ? open : i, Math.min(close + 1, this.n));
    return close + 1;
  }

  private wordStart(i: number): boolean {
    return i === 0 || !/[A-Za-z0-9_]/.test(this.src[i - 1]);
  }

  private hash(i: number): number {
    let k = 0;
    while (this.src[i + k] === '#') k++;
    if (this.src[i + k] === '"') return this.rawString(i, k);
    IDENT.lastIndex = i + 1;
    const word = k === 1 ? IDENT.exec(this.src)?.[0] : undefined;
    if (!word) {
      this.blank(i, i + k);
      return i + k;
    }
    const afterWord = i + 1 + word.length;
    if (DIRECTIVES.has(word) && this.startsLine(i)) {
      const end = this.lineEnd(i);
      this.blank(i, end);
      return end;
    }
    if ((AVAILABILITY.has(word) || DIAGNOSTICS.has(word)) && this.src[afterWord] === '(') {
      const close = this.code(afterWord + 1, true);
      const end = Math.min(close + 1, this.n);
      this.blank(i, end);
      if (AVAILABILITY.has(word)) this.write(i, 'true');
      return end;
    }
    this.out[i] = ' ';
    return i + 1;
  }

  /**
   * `#"..."#`, `##"..."##`, `#"""..."""#`: an ordinary string of blanks from the first hash to the last,
   * line breaks kept (blanks outside the quotes would upset the grammar before a `;`).
   */
  private rawString(i: number, hashes: number): number {
    const open = i + hashes;
    const quotes = this.src.startsWith('"""', open) ? 3 : 1;
    const close = `${'"'.repeat(quotes)}${'#'.repeat(hashes)}`;
    const end = this.src.indexOf(close, open + quotes);
    if (end < 0) {
      this.blank(i, open);
      return open;
    }
    const stop = end + close.length;
    this.blank(i, stop);
    this.write(i, '"'.repeat(quotes));
    this.write(stop - quotes, '"'.repeat(quotes));
    return stop;
  }

  /** An ordinary string literal; interpolations `\( ... )` are code and may hold strings themselves. */
  private stringEnd(i: number): number {
    const multi = this.src.startsWith('"""', i);
    let j = i + (multi ? 3 : 1);
    while (j < this.n) {
      const c = this.src[j];
      if (c === '\\') {
        if (this.src[j + 1] === '(') {
          j = this.code(j + 2, true) + 1;
          continue;
        }
        j += 2;
        continue;
      }
      if (multi ? this.src.startsWith('"""', j) : c === '"') return j + (multi ? 3 : 1);
      if (!multi && c === '\n') return j; // unterminated: stop at the line end
      j++;
    }
    return j;
  }

  /** Swift block comments nest. */
  private blockCommentEnd(i: number): number {
    let depth = 0;
    let j = i;
    while (j < this.n) {
      if (this.src[j] === '/' && this.src[j + 1] === '*') {
        depth++;
        j += 2;
      } else if (this.src[j] === '*' && this.src[j + 1] === '/') {
        depth--;
        j += 2;
        if (depth === 0) return j;
      } else j++;
    }
    return j;
  }

  private lineEnd(i: number): number {
    const nl = this.src.indexOf('\n', i);
    return nl < 0 ? this.n : nl;
  }

  private startsLine(i: number): boolean {
    for (let j = i - 1; j >= 0 && this.src[j] !== '\n'; j--) if (this.src[j] !== ' ' && this.src[j] !== '\t') return false;
    return true;
  }

  private blank(from: number, to: number): void {
    for (let j = from; j < to && j < this.n; j++) if (this.out[j] !== '\n' && this.out[j] !== '\r') this.out[j] = ' ';
  }

  private write(at: number, text: string): void {
    for (let j = 0; j < text.length; j++) this.out[at + j] = text[j];
  }
}
