import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { loadConfig } from '../config/config.js';
import { isBinary } from '../extract/filters.js';
import { readContained } from '../repo/contained.js';
import { scrubbedLines } from '../secrets/read.js';
import { excerptFromLines, MAX_REGION_LINES } from './regions.js';
import { documentFormatOf, maxBytesFor } from '../extract/documents/formats.js';
import { envView } from '../extract/documents/extract.js';
import { keptPdfText } from '../extract/documents/view.js';

/**
 * The source of indexed files, read at answer time (`--snippets`, bundles, their MCP tools) through
 * the same containment as indexing (src/repo/contained.ts): a file is read only when it is still a
 * regular file inside the repository, reached without a link. It is then compared with what the index
 * knows (size and sha256); a file that changed since is checked again as indexing would check it (not
 * binary, within the size limit) and used, with a note. Every file not read, and every one that
 * changed, is named in `notes`, which answers carry as warnings, so an agent knows why a place comes
 * without its source. Documents are shown as the index sees them: a PDF's text as extracted when it was
 * indexed, a .env file's keys without their values. What is read goes through the secrets choke point (src/secrets/redact.ts) with the
 * repository's policy, so a credential added since the file was indexed is shown redacted too.
 */
export class SourceReader {
  readonly notes: string[] = [];
  private readonly texts = new Map<string, readonly string[] | null>();
  private readonly maxBytes: number;
  private readonly known: Database.Statement<[string], { hash: string; size: number }>;

  constructor(db: Database.Database, private readonly root: string) {
    this.maxBytes = loadConfig(root).maxFileBytes;
    this.known = db.prepare('SELECT hash, size FROM files WHERE path = ?');
  }

  /** The file's lines, read once per answer; null (with a note) when it is not read. */
  lines(rel: string): readonly string[] | null {
    if (!this.texts.has(rel)) this.texts.set(rel, this.read(rel));
    return this.texts.get(rel)!;
  }

  /** A region's source lines (capped, secrets redacted), or null when the file is not read. */
  excerpt(r: { path: string; startLine: number; endLine: number }, maxLines = MAX_REGION_LINES): string | null {
    const lines = this.lines(r.path);
    return lines && excerptFromLines(lines, r, maxLines);
  }

  private read(rel: string): readonly string[] | null {
    const row = this.known.get(rel);
    if (!row) return this.refuse(rel, 'it is not an indexed file');
    const format = documentFormatOf(rel);
    const read = readContained(this.root, rel, format ? maxBytesFor(format, this.maxBytes) : this.maxBytes);
    if (!read.ok) return this.refuse(rel, read.detail);
    const digest = createHash('sha256').update(read.data).digest('hex');
    const same = read.data.length === row.size && digest === row.hash;
    let text: () => string;
    if (format === 'pdf') {
      // The text kept for this very content (by hash): a PDF changed since has none until it is indexed again.
      const kept = keptPdfText(this.root, digest);
      if (kept === null) return this.refuse(rel, 'it changed since it was indexed, and its text is extracted when it is indexed again (`cg update`)');
      text = () => kept;
    } else {
      if (!same) {
        if (isBinary(read.data)) return this.refuse(rel, 'it changed since it was indexed and is binary now');
        this.notes.push(`${rel} changed since it was indexed: its line numbers may have moved (\`cg update\` indexes it again)`);
      }
      // Decoded only when this version is not scrubbed already.
      text = () => (format === 'env' ? envView(read.data.toString('utf8')) : read.data.toString('utf8'));
    }
    // Scrubbed and split once per version of the file across answers (src/secrets/read.ts).
    return scrubbedLines(this.root, rel, digest, text);
  }

  private refuse(rel: string, why: string): null {
    this.notes.push(`${rel} was not read: ${why}`);
    return null;
  }
}
