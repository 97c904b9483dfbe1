/**
 * What is embedded for a symbol, and its cache key.
 *
 *   embedText({qualifiedName, name, signature, doc, mutates})   -> short text (PRD: signature + first doc sentence + mutates)
 *   textHash(text)                                              -> 128 bits of the text's sha256, base64url
 *
 * Short on purpose: identifiers and a sentence carry the meaning a query matches; bodies would drown
 * them (a static model averages every word) and cost transformer models time. The enclosing name is
 * added because a method's signature does not say which class it belongs to (`Service.run` ->
 * "Service." before `def run(self)`). Changing this function changes every hash, so every symbol is
 * re-embedded once: that is the intended invalidation.
 */
import { createHash } from 'node:crypto';

export interface EmbedTextInput {
  name: string;
  qualifiedName: string;
  signature: string;
  doc: string | null;
  mutates: readonly string[];
}

const MAX_SIGNATURE = 300;
const MAX_DOC = 300;
const MAX_MUTATES = 8;

export function embedText(s: EmbedTextInput): string {
  const lines = [`${container(s)}${clip(oneLine(s.signature) || s.name, MAX_SIGNATURE)}`];
  const doc = s.doc ? clip(oneLine(s.doc), MAX_DOC) : '';
  if (doc) lines.push(doc);
  if (s.mutates.length) lines.push(`mutates ${s.mutates.slice(0, MAX_MUTATES).join(', ')}`);
  return lines.join('\n');
}

/**
 * The key of a text's cached vector: the first 128 bits of its SHA-256, base64url (22 characters; the
 * 64 of a whole hex digest, stored twice per symbol, were 1.2 MB of Django's index).
 */
export function textHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest().subarray(0, 16).toString('base64url');
}

function container(s: EmbedTextInput): string {
  const q = s.qualifiedName;
  if (q === s.name || !q.endsWith(`.${s.name}`)) return '';
  return `${q.slice(0, -(s.name.length + 1))}.`;
}

function oneLine(t: string): string {
  return t.replace(/\s+/g, ' ').trim();
}

/** Cut at a word boundary so a clipped identifier does not become a different word. */
function clip(t: string, max: number): string {
  if (t.length <= max) return t;
  const cut = t.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return space > max / 2 ? cut.slice(0, space) : cut;
}
