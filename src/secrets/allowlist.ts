import fs from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

/**
 * The secrets allowlist (`.cgsecrets` at the repository root by default), for accepting false
 * positives. One entry per line, `#` starts a comment:
 *   - a fingerprint from `cg status` (24 hex digits): accepts that one finding;
 *   - `rule:<id>`: turns a rule off for the whole repository;
 *   - anything else: a path pattern in .gitignore syntax whose files are not scanned.
 */
export interface AllowlistData {
  fingerprints: string[];
  rules: string[];
  patterns: string[];
}

export class Allowlist {
  private readonly fingerprints: Set<string>;
  private readonly rules: Set<string>;
  private readonly paths: Ignore | null;

  constructor(readonly data: AllowlistData) {
    this.fingerprints = new Set(data.fingerprints);
    this.rules = new Set(data.rules);
    this.paths = data.patterns.length ? ignore().add(data.patterns) : null;
  }

  static empty(): Allowlist {
    return new Allowlist({ fingerprints: [], rules: [], patterns: [] });
  }

  static parse(text: string): Allowlist {
    const data: AllowlistData = { fingerprints: [], rules: [], patterns: [] };
    for (const raw of text.split('\n')) {
      const line = raw.replace(/\s+#.*$/, '').trim();
      if (!line || line.startsWith('#')) continue;
      if (/^[0-9a-f]{24}$/i.test(line)) data.fingerprints.push(line.toLowerCase());
      else if (line.startsWith('rule:')) data.rules.push(line.slice(5).trim());
      else data.patterns.push(line);
    }
    return new Allowlist(data);
  }

  static load(root: string, file: string): Allowlist {
    try {
      return Allowlist.parse(fs.readFileSync(path.join(root, file), 'utf8'));
    } catch {
      return Allowlist.empty();
    }
  }

  acceptsFile(p: string): boolean {
    return this.paths?.ignores(p) ?? false;
  }

  disablesRule(id: string): boolean {
    return this.rules.has(id);
  }

  acceptsFingerprint(fp: string): boolean {
    return this.fingerprints.has(fp);
  }
}
