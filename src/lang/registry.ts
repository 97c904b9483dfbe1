import { CgError } from '../errors.js';
import type { LanguageSpec } from './types.js';
import { php } from './php.js';
import { python } from './python.js';
import { rust } from './rust.js';
import { go } from './go.js';
import { java } from './java.js';
import { javascript } from './javascript.js';
import { tsx, typescript } from './typescript.js';
import { swift } from './swift.js';
import { c } from './c.js';
import { cpp } from './cpp.js';
import { csharp } from './csharp.js';
import { ruby } from './ruby.js';
import { dart } from './dart.js';
import { kotlin } from './kotlin.js';
import { scala } from './scala.js';
import { lua } from './lua.js';
import { elixir } from './elixir.js';
import { bash } from './bash.js';
import { haskell } from './haskell.js';

/** Every supported language. Adding one = an entry here + `src/lang/<id>.ts` + `queries/<id>/`. */
export const LANGUAGES: readonly LanguageSpec[] = [
  python, typescript, tsx, javascript, go, java, php, swift, rust,
  c, cpp, csharp, ruby, dart, kotlin, scala, lua, elixir, bash, haskell,
];

const byId = new Map(LANGUAGES.map((l) => [l.id, l]));
const byExt = new Map<string, LanguageSpec>();
for (const lang of LANGUAGES) for (const ext of lang.extensions) byExt.set(ext, lang);

/** The language for a file name, by its longest matching extension (`.d.ts` before `.ts`). */
export function languageForFile(fileName: string): LanguageSpec | null {
  const base = fileName.slice(fileName.lastIndexOf('/') + 1);
  for (let i = base.indexOf('.'); i !== -1; i = base.indexOf('.', i + 1)) {
    const lang = byExt.get(base.slice(i).toLowerCase());
    if (lang) return lang;
  }
  return null;
}

/** The parsed language of that id; null for a document format (Markdown, YAML, …) or an unknown id. */
export function codeLanguage(id: string): LanguageSpec | null {
  return byId.get(id) ?? null;
}

/** The family whose definitions a file of that language can call by name (LanguageSpec.family). */
export function languageFamily(id: string): string {
  return byId.get(id)?.family ?? id;
}

export function languageById(id: string): LanguageSpec {
  const lang = byId.get(id);
  if (!lang) {
    throw new CgError('usage', `Unknown language "${id}"`, `Known languages: ${LANGUAGES.map((l) => l.id).join(', ')}.`);
  }
  return lang;
}
