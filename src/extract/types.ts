import type { ImportSpec, SymbolKind, Visibility } from '../lang/types.js';
import type { FileTerms } from '../retrieve/terms.js';
import type { FireSite, Registration } from './registrations.js';
import type { Access, TableDeclaration } from './accesses.js';
import type { SecretFinding } from '../secrets/scan.js';

export interface ExtractedSymbol {
  name: string;
  qualifiedName: string;
  kind: SymbolKind;
  /** Index of the enclosing symbol in the same file's list; -1 only for the module symbol. */
  parent: number;
  startLine: number; // 1-based, inclusive
  endLine: number;
  signature: string;
  /** First sentence of the docstring or doc comment. */
  doc: string | null;
  params: string[];
  visibility: Visibility;
  isAsync: boolean;
  isStatic: boolean;
  /** Attributes and globals the body assigns (Python). */
  mutates: string[];
  annotations: string[];
  exported: boolean;
  isTest: boolean;
  /** The definition's name lies in a syntax-error region. */
  inError: boolean;
  /**
   * Declared inside a function or block that is not a symbol (a test's callback: `it('…', () => { const
   * Counter = … })`), so its parent is the module's while only that scope sees it (LanguageSpec.localScopes).
   */
  scoped?: boolean;
}

export interface CallSite {
  /** Index of the innermost enclosing symbol (function, method, class or the module). */
  caller: number;
  name: string;
  /** Source text of the object the call goes through (`self`, `client.session`, `fmt`). */
  receiver: string | null;
  /** Declared or constructed type of the receiver when the file says it (`x: Foo`, `x = Foo()`). */
  receiverType: string | null;
  line: number;
  inError: boolean;
  /**
   * The called name is bound in a function or block around the call (LanguageSpec.localScopes): the
   * start line of the file's definition bound there (a function declared in a test's callback), or 0
   * when no definition is (a parameter, a local variable). Absent: not bound locally.
   */
  local?: number;
  /**
   * The type of the receiver chain's first variable when the receiver itself has none (`w.Body` with
   * `w := httptest.NewRecorder()`): read by LanguageSpec.externalChains.
   */
  receiverHead?: string;
}

export interface InheritRef {
  /** The subtype; the module symbol (0) when `ownerName` names a type declared in another file. */
  symbol: number;
  /** The type an extension-like block (`extension Foo: P`, `impl P for Foo`) adds a supertype to. */
  ownerName?: string;
  kind: 'extends' | 'implements';
  /** The supertype as written, type arguments removed: `Base`, `models.Model`. */
  name: string;
  line: number;
  inError: boolean;
}

export interface ExtractedImport extends ImportSpec {
  inError: boolean;
}

export interface FileExtract {
  path: string;
  /** Search terms for retrieval (filled after extraction, from the same text). */
  terms?: FileTerms;
  language: string;
  loc: number;
  /** The tree had syntax errors; symbols outside error regions are still here. */
  partial: boolean;
  errorCount: number;
  isTest: boolean;
  symbols: ExtractedSymbol[];
  calls: CallSite[];
  inherits: InheritRef[];
  imports: ExtractedImport[];
  /** Callbacks registered under literal names (routes, hooks, events); routes also have an endpoint symbol. */
  registrations: Registration[];
  /** Places that fire a hook or event by name (`do_action('init')`, `emitter.emit('data')`). */
  fires: FireSite[];
  /** Reads and writes of fields, globals, tables and models by the file's functions. */
  accesses: Access[];
  /** Classes that declare the table they map. */
  tables: TableDeclaration[];
}

/** Why a file's content kept it out of the index. */
export type ContentSkipReason =
  | 'binary' | 'minified' | 'generated' | 'secret' | 'unreadable' | 'too_large' | 'parse_failed';

export type { SecretFinding };

export type FileOutcome =
  | {
      status: 'indexed';
      path: string;
      size: number;
      hash: string;
      /** Non-fatal: e.g. `invalid_utf8` (decoded with replacement characters). */
      warnings: string[];
      extract: FileExtract;
      /** Credentials redacted from the text before extraction (`secrets.mode: redact`). */
      secrets?: SecretFinding[];
    }
  | {
      status: 'skipped';
      path: string;
      language: string;
      size: number;
      hash: string | null;
      reason: ContentSkipReason;
      detail: string;
      secrets?: SecretFinding[];
    };

export type SkippedOutcome = Extract<FileOutcome, { status: 'skipped' }>;
export type IndexedOutcome = Extract<FileOutcome, { status: 'indexed' }>;
