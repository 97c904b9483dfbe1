/** Small text helpers for turning source fragments into stored fields. */

export function collapse(text: string, max = 240): string {
  const s = text.replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

// `--`, Lua's `---` (LDoc) and Haskell's `-- |` (Haddock) too.
const COMMENT_OPEN = /^\s*(\/\*\*?!?|\/\/[\/!]?|#+!?|--+(\s?\|)?)\s?/;
const DOCSTRING_QUOTES = /^[rRuUbBfF]*("""|'''|"|')([\s\S]*?)\1?$/;

/** Strips comment markers or docstring quotes, keeping the words. */
export function stripCommentMarkers(raw: string): string {
  const text = raw.trim();
  const doc = DOCSTRING_QUOTES.exec(text);
  if (doc) return doc[2];
  return text
    .replace(/\*+\/\s*$/, '')
    .split('\n')
    .map((line) => line.replace(COMMENT_OPEN, '').replace(/^\s*\*+\s?/, ''))
    .join('\n');
}

/**
 * The first sentence of a docstring or doc comment: the first paragraph up to `.`, `!` or `?`
 * followed by a space, stopping before tag lines such as `@param` or `:param`.
 */
export function firstSentence(raw: string, max = 200): string | null {
  const lines = stripCommentMarkers(raw).split('\n');
  const para: string[] = [];
  for (const line of lines) {
    const t = line.trim();
    if (!t) {
      if (para.length) break;
      continue;
    }
    // JSDoc's file-level tags carry the description on the tag line itself.
    const described = /^@(file|fileoverview|overview|module|description)\b\s*(.*)$/.exec(t);
    if (described) {
      if (described[2] && described[1] !== 'module') para.push(described[2]);
      continue;
    }
    if (/^[@:]\w/.test(t) || /^(Args|Arguments|Parameters|Returns|Raises|Example|Examples):?$/.test(t)) break;
    // C# XML doc comments: the summary's words, up to the first `<param>`, `<returns>`… element.
    if (/^<(param|typeparam|returns|exception|example|remarks|value|seealso)\b/.test(t) && para.length) break;
    para.push(xmlDocText(t));
  }
  if (!para.length) return null;
  const text = inlineTags(para.join(' '));
  const m = /^(.+?[.!?])(\s|$)/.exec(text);
  return collapse(m ? m[1] : text, max);
}

/** `<summary>`, `<para>` and `<c>` tags dropped, `<see cref="T.M"/>` as `T.M`: C# XML doc comments as words. */
function xmlDocText(line: string): string {
  if (!line.includes('<')) return line;
  return line
    .replace(/<(see|seealso|paramref|typeparamref)\s+(cref|name|langword)="([^"]*)"\s*\/>/g, '$3')
    .replace(/<\/?(summary|remarks|para|c|code|b|i|returns|value)>/g, '')
    .trim();
}

/** Javadoc/JSDoc inline tags as plain words: `{@code x}` -> `x`, `{@link Foo#bar label}` -> `label`. */
function inlineTags(text: string): string {
  return text.replace(/\{@(\w+)\s*([^{}]*)\}/g, (_, tag: string, body: string) => {
    if (/^link(plain)?$/.test(tag)) {
      const [target, ...label] = body.trim().split(/\s+/);
      return label.length ? label.join(' ') : target.replace(/^#/, '').replace(/#/, '.');
    }
    return tag === 'inheritDoc' ? '' : body.trim();
  });
}

/**
 * A declared or constructed type reduced to a name that can be looked up: pointers, references,
 * optionals and type arguments removed (`*Router` -> `Router`, `List<Foo>` -> `List`,
 * `Optional[Foo]` -> `Optional`). Null for unions, function types and the like.
 */
export function normalizeTypeName(text: string): string | null {
  let t = text.trim().replace(/^["']|["']$/g, '');
  t = t.replace(/^(&\s*('\w+\s+)?(mut\s+)?|\*+|\?|mut\s+|const\s+|readonly\s+|dyn\s+|impl\s+)+/, '');
  t = t.replace(/[?!]+$/, '');
  const cut = t.search(/[<[(]/);
  if (cut > 0) t = t.slice(0, cut);
  t = t.trim().replace(/^\\/, '');
  if (!t || /[^\w.:\\$]/.test(t)) return null;
  return t;
}
