import fs from 'node:fs';
import path from 'node:path';
import { configPath, loadConfig } from '../config/config.js';
import { readContained } from '../repo/contained.js';
import { Allowlist } from './allowlist.js';
import { scrubText, type SecretPolicy } from './redact.js';

/**
 * How cg reads a repository's files besides extraction: the configuration files import resolution
 * reads (package.json, go.mod, Cargo.toml) come through readScrubbed, and answers' excerpts and bundles
 * through SourceReader (src/retrieve/source.ts), which scrubs with the same policy, so a file that
 * gained a credential since it was indexed is redacted when it is read, not only when it is indexed.
 * Both read through readContained (src/repo/contained.ts): nothing outside the repository, no links.
 * test/secrets.test.ts fails when a module under src/ reads repository files another way.
 */

interface CachedPolicy {
  /** The config's and the allowlist's mtime and size when read. */
  key: string;
  allowFile: string;
  policy: SecretPolicy;
}

const policies = new Map<string, CachedPolicy>();

function stamp(file: string): string {
  const st = fs.statSync(file, { throwIfNoEntry: false });
  return st ? `${st.mtimeMs}:${st.size}` : '-';
}

/** A repository's secret policy (its config and allowlist), read again when either file changes. */
export function repoPolicy(root: string): SecretPolicy {
  const cfgKey = stamp(configPath(root));
  const cached = policies.get(root);
  if (cached && cached.key === `${cfgKey}|${stamp(path.join(root, cached.allowFile))}`) return cached.policy;
  const config = loadConfig(root);
  const allowFile = config.secrets.allowlistFile;
  const policy: SecretPolicy = { enabled: config.secrets.enabled, mode: config.secrets.mode, allow: Allowlist.load(root, allowFile) };
  policies.set(root, { key: `${cfgKey}|${stamp(path.join(root, allowFile))}`, allowFile, policy });
  return policy;
}

/**
 * Scrubbed texts by file and version, shared by every reader (the manifests import resolution reads,
 * answers' excerpts): a server shows the same files again and again, and scrubbing costs about 0.1 s
 * per MB (it was most of a federated search's time).
 */
const texts = new Map<string, ScrubbedEntry>();
const MAX_TEXTS = 512;

interface ScrubbedEntry {
  version: string;
  text: string;
  /** The text split into lines, made on first use and shared (readonly) by every answer that shows the file. */
  lines?: readonly string[];
}

/**
 * `raw()` scrubbed under the repository's current policy, kept for the file while `version` (what
 * identifies its bytes: a content hash, or mtime and size) and the policy's own files are unchanged.
 * Null when `raw()` is (the file could not be read).
 */
export function scrubbedText(root: string, rel: string, version: string, raw: () => string | null): string | null {
  return scrubbedEntry(root, rel, version, raw)?.text ?? null;
}

/** As scrubbedText, split into lines: answers show a file's places by line, and splitting a long file on every answer cost more than reading it. */
export function scrubbedLines(root: string, rel: string, version: string, raw: () => string | null): readonly string[] | null {
  const entry = scrubbedEntry(root, rel, version, raw);
  if (!entry) return null;
  entry.lines ??= Object.freeze(entry.text.split('\n'));
  return entry.lines;
}

function scrubbedEntry(root: string, rel: string, version: string, raw: () => string | null): ScrubbedEntry | null {
  const policy = repoPolicy(root);
  const key = `${root}\0${rel}`;
  const full = `${version}|${policies.get(root)?.key}`;
  const hit = texts.get(key);
  if (hit && hit.version === full) return hit;
  const text = raw();
  if (text === null) return null;
  const entry = { version: full, text: scrubText(rel, text, policy).text };
  texts.delete(key);
  texts.set(key, entry);
  if (texts.size > MAX_TEXTS) texts.delete(texts.keys().next().value!);
  return entry;
}

/**
 * A repository file's text with its secrets redacted (whatever `secrets.mode` is: an answer never
 * leaves a file out, it shows the file without the credential), or null when it cannot be read.
 */
export function readScrubbed(root: string, rel: string, maxBytes: number): string | null {
  try {
    // Resolvers probe many paths that do not exist: a stat answers those several times faster than a
    // failed read. lstat, so a link is not taken for a file (readContained refuses links anyway).
    const st = fs.lstatSync(path.join(root, rel), { throwIfNoEntry: false });
    if (!st?.isFile()) return null;
    return scrubbedText(root, rel, `${st.mtimeMs}:${st.size}`, () => {
      const read = readContained(root, rel, maxBytes);
      return read.ok ? read.data.toString('utf8') : null;
    });
  } catch {
    return null;
  }
}
