/**
 * Document formats: files indexed beside code, as units of their own (Markdown sections, YAML/JSON key
 * paths, PDF pages, paragraphs of plain text, `.env` key names). Their "language" in the index is the
 * format id, so every unit has a type: a file whose language is a document format is a document.
 */
export const DOCUMENT_FORMATS = ['markdown', 'yaml', 'json', 'pdf', 'text', 'env'] as const;
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];
export type UnitType = 'code' | 'document';
export const FILTER_TYPES = ['all', 'code', 'documents'] as const;
export type FilterType = (typeof FILTER_TYPES)[number];

const BY_EXTENSION: Record<string, DocumentFormat> = {
  '.md': 'markdown', '.markdown': 'markdown', '.mdx': 'markdown',
  '.yaml': 'yaml', '.yml': 'yaml',
  '.json': 'json',
  '.pdf': 'pdf',
  '.txt': 'text', '.rst': 'text', '.adoc': 'text',
  '.env': 'env',
};

/** Files that are data for tools, not documents for readers: lockfiles and source maps. */
const NOT_DOCUMENTS = /^(package-lock\.json|npm-shrinkwrap\.json|composer\.lock|yarn\.lock|pnpm-lock\.yaml|Pipfile\.lock|poetry\.lock|.*\.map|.*\.min\.json|CMakeLists\.txt|requirements.*\.txt|robots\.txt|LICENSE.*|COPYING.*)$/i;

/** The document format of a file name, or null. `.env`, `.env.local`, `prod.env` are env files. */
export function documentFormatOf(fileName: string): DocumentFormat | null {
  const base = fileName.slice(fileName.lastIndexOf('/') + 1);
  if (NOT_DOCUMENTS.test(base)) return null;
  if (/^\.env(\.[\w.-]+)?$/i.test(base)) return 'env';
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return null;
  return BY_EXTENSION[base.slice(dot).toLowerCase()] ?? null;
}

const FORMATS: ReadonlySet<string> = new Set(DOCUMENT_FORMATS);

export function isDocumentFormat(language: string): language is DocumentFormat {
  return FORMATS.has(language);
}

export function unitType(language: string): UnitType {
  return FORMATS.has(language) ? 'document' : 'code';
}

/** A file's unit type from its name alone (document formats are recognised by name). */
export function unitTypeOfPath(path: string): UnitType {
  return documentFormatOf(path) ? 'document' : 'code';
}

/** Whether a unit of this language passes a filter_type. */
export function passesFilter(language: string, filter: FilterType | undefined): boolean {
  if (!filter || filter === 'all') return true;
  return (unitType(language) === 'document') === (filter === 'documents');
}

/** PDFs carry fonts and images beside their text: a 50-page manual is easily several megabytes. */
const PDF_MAX_BYTES = 32_000_000;

/** The size limit for a file of this language (or document format): maxFileBytes, larger for PDFs. */
export function maxBytesFor(language: string, maxFileBytes: number): number {
  return language === 'pdf' ? Math.max(maxFileBytes, PDF_MAX_BYTES) : maxFileBytes;
}

/** Which files a ranking looks at: code, documents, or both. Each is ranked among its own kind (see retrieve/query.ts). */
export type Pool = 'code' | 'documents' | 'all';

const FORMAT_LIST = DOCUMENT_FORMATS.map((f) => `'${f}'`).join(', ');

/** An SQL condition (to AND in) that keeps a pool's files, given the column holding a file's language; '' for all. */
export function poolCondition(languageColumn: string, pool: Pool): string {
  if (pool === 'all') return '';
  return ` AND ${languageColumn} ${pool === 'documents' ? 'IN' : 'NOT IN'} (${FORMAT_LIST})`;
}
