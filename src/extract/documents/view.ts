import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { CG_DIR } from '../../config/config.js';
import { documentFormatOf } from './formats.js';
import { envView } from './extract.js';

/**
 * The text of a file as the index may show it: for code and most documents the file itself; for a
 * `.env` file the keys without their values; for a PDF the text extracted when it was indexed (kept
 * under .codegraph/text/ by content hash, so a PDF changed since is not shown with old text).
 * Every excerpt and bundle reads files through this.
 */
export function readableText(root: string, relPath: string): string | null {
  const format = documentFormatOf(relPath);
  try {
    if (format === 'pdf') {
      const hash = createHash('sha256').update(fs.readFileSync(path.join(root, relPath))).digest('hex');
      return fs.readFileSync(pdfTextPath(root, hash), 'utf8');
    }
    const text = fs.readFileSync(path.join(root, relPath), 'utf8');
    return format === 'env' ? envView(text) : text;
  } catch {
    return null;
  }
}

export function pdfTextPath(root: string, hash: string): string {
  return path.join(root, CG_DIR, 'text', `${hash}.txt`);
}

/** Keeps the text extracted from a PDF for excerpts (written atomically: readers never see half). */
export function keepPdfText(root: string, hash: string, text: string): void {
  const file = pdfTextPath(root, hash);
  if (fs.existsSync(file)) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}
