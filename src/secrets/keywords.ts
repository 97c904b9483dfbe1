/**
 * Which of the rules' keywords a text holds, case aside, in one pass over it: an Aho-Corasick
 * automaton over the keywords (lower-case ASCII, as gitleaks writes them). The same answer as testing
 * `text.toLowerCase().includes(k)` for each keyword, without lower-casing a copy of the text or trying
 * ~250 alternatives at every position (a regex that did that was ~40 % of scanning Go's standard library).
 *
 *   new KeywordScanner(['key', 'api_key', 'token']).present('const API_KEY = 1')  -> Set {'key', 'api_key'}
 */
export class KeywordScanner {
  /** Keyword characters' column in the transition table; 0 for every character no keyword holds. */
  private readonly column = new Uint8Array(128);
  private readonly width: number;
  /** next state = delta[state * width + column]; state 0 is the root. */
  private readonly delta: Int32Array;
  /** Keywords that end at each state (its own and, through failure links, its suffixes'). */
  private readonly output: string[][];

  constructor(readonly keywords: string[]) {
    for (const k of keywords) {
      if (!/^[\x00-\x7f]+$/.test(k) || k !== k.toLowerCase()) throw new Error(`secret rule keyword not lower-case ASCII: ${k}`);
    }
    let columns = 1;
    for (const k of keywords) for (let i = 0; i < k.length; i++) if (!this.column[k.charCodeAt(i)]) this.column[k.charCodeAt(i)] = columns++;
    this.width = columns;
    // The trie.
    const children: Map<number, number>[] = [new Map()];
    const output: string[][] = [[]];
    for (const k of new Set(keywords)) {
      let s = 0;
      for (let i = 0; i < k.length; i++) {
        const c = this.column[k.charCodeAt(i)];
        let next = children[s].get(c);
        if (next === undefined) {
          next = children.length;
          children.push(new Map());
          output.push([]);
          children[s].set(c, next);
        }
        s = next;
      }
      output[s].push(k);
    }
    // Failure links breadth-first, folded into a full transition table.
    const delta = new Int32Array(children.length * columns);
    const fail = new Int32Array(children.length);
    const queue: number[] = [];
    for (const [c, s] of children[0]) {
      delta[c] = s;
      queue.push(s);
    }
    for (let head = 0; head < queue.length; head++) {
      const s = queue[head];
      output[s].push(...output[fail[s]]);
      for (let c = 1; c < columns; c++) {
        const child = children[s].get(c);
        if (child === undefined) delta[s * columns + c] = delta[fail[s] * columns + c];
        else {
          fail[child] = delta[fail[s] * columns + c];
          delta[s * columns + c] = child;
          queue.push(child);
        }
      }
    }
    this.delta = delta;
    this.output = output;
  }

  /** The keywords that occur in the text once it is lower-cased. */
  present(text: string): Set<string> {
    const { column, delta, width, output } = this;
    const reached = new Uint8Array(output.length);
    const K = column[107]; // 'k'
    const I = column[105]; // 'i'
    let s = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c < 128) {
        // ASCII upper case lower-cased; a character no keyword holds leads back to the root.
        s = delta[s * width + column[c >= 65 && c <= 90 ? c + 32 : c]];
      } else if (c === 0x212a) {
        s = delta[s * width + K]; // KELVIN SIGN lower-cases to 'k'
      } else if (c === 0x130) {
        // LATIN CAPITAL LETTER I WITH DOT ABOVE lower-cases to 'i' and a combining dot.
        s = delta[s * width + I];
        reached[s] = 1;
        s = 0;
      } else s = 0; // every other character lower-cases to characters outside ASCII
      reached[s] = 1;
    }
    const found = new Set<string>();
    for (let st = 1; st < reached.length; st++) if (reached[st]) for (const k of output[st]) found.add(k);
    return found;
  }
}
