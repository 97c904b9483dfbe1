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

/** Scrubbed texts by file and version: a server answering many queries scans each file once. */
const texts = new Map<string, { key: string; text: string }>();
const MAX_TEXTS = 256;

/**
 * A repository file's text with its secrets redacted (whatever `secrets.mode` is: an answer never
 * leaves a file out, it shows the file without the credential), or null when it cannot be read.
 */
export function readScrubbed(root: string, rel: string, maxBytes: number): string | null {
  const abs = path.join(root, rel);
  let st: fs.Stats | undefined;
  try {
    // Resolvers probe many paths that do not exist: a stat answers those several times faster than a
    // failed read. lstat, so a link is not taken for a file (readContained refuses links anyway).
    st = fs.lstatSync(abs, { throwIfNoEntry: false });
    if (!st?.isFile()) return null;
    const policy = repoPolicy(root);
    const key = `${st.mtimeMs}:${st.size}:${policies.get(root)?.key}`;
    const hit = texts.get(abs);
    if (hit && hit.key === key) return hit.text;
    const read = readContained(root, rel, maxBytes);
    if (!read.ok) return null;
    const text = scrubText(rel, read.data.toString('utf8'), policy).text;
    texts.delete(abs);
    texts.set(abs, { key, text });
    if (texts.size > MAX_TEXTS) texts.delete(texts.keys().next().value!);
    return text;
  } catch {
    return null;
  }
}
