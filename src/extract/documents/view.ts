import fs from 'node:fs';
import path from 'node:path';
import { CG_DIR } from '../../paths.js';

/** The text kept for a PDF of this content (sha256), or null when none was kept (the PDF changed since it was indexed). */
export function keptPdfText(root: string, hash: string): string | null {
  try {
    return fs.readFileSync(pdfTextPath(root, hash), 'utf8');
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
