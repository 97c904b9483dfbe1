import type { EdgeRow } from '../store/writer.js';
import type { ImportSpec } from '../lang/types.js';

/** What resolution reads: the stored extraction of every file, without parse trees. */
export interface RFile {
  id: number;
  path: string;
  language: string;
  isTest: boolean;
  /** A dependency's declaration file (src/indexer/external.ts). */
  external: boolean;
}

export interface RSymbol {
  id: number;
  fileId: number;
  parentId: number | null;
  name: string;
  qualifiedName: string;
  kind: string;
  exported: boolean;
  isTest: boolean;
  startLine: number;
  /** The definition's name lies in a syntax-error region. */
  inError: boolean;
  /** Declared in a callback or block that is not a symbol: only calls there reach it (their `local` detail). */
  scoped: boolean;
}

export interface RImport extends ImportSpec {
  id: number;
  fileId: number;
  inError: boolean;
}

export interface RRef {
  id: number;
  fileId: number;
  symbolId: number;
  kind: 'call' | 'extends' | 'implements' | 'register' | 'fire' | 'read' | 'write' | 'table';
  name: string;
  receiver: string | null;
  receiverType: string | null;
  line: number;
  inError: boolean;
  /** register and fire: JSON {target, handler?, literal?}; read and write: {what} (src/store/writer.ts). */
  detail: string | null;
}

/**
 * References every resolution reads from every file, also on an update that re-resolves a few:
 * supertypes (method lookups go through them) and the tables classes declare (table accesses meet them).
 */
export const GLOBAL_REF_KINDS = ['extends', 'implements', 'table'] as const;

export interface ResolveInput {
  files: RFile[];
  symbols: RSymbol[];
  imports: RImport[];
  /** Call, registration and other per-file refs of the files in `only` (or of all files), and the supertype refs of all files. */
  refs: RRef[];
  /**
   * Resolve only for these files: their edges and states are produced; the rest of the repository is
   * read, not re-resolved (an incremental update). Absent: everything.
   */
  only?: ReadonlySet<number>;
  /**
   * Import modules that lead to installed dependencies' files, by the importing language: an import
   * the repository cannot resolve binds these instead of a bare name.
   */
  externalModules?: Map<string, Map<string, number[]>>;
  /** A symbol's signature, read on demand (only return types need it). */
  signatureOf?: (symbolId: number) => string | null;
}

/** How a call site was tied to its target, strongest first; the confidence follows from it. */
export type CallTier =
  | 'local'      // defined in the same file, in scope at the call
  | 'member'     // a method of the receiver's known type (self/this, declared or constructed type)
  | 'import'     // a name or module the file imports
  | 'shared'     // same package / module without an import (Go, Java, Swift)
  | 'inherited'  // a method found on a supertype
  | 'global';    // only a name match somewhere in the repository

export interface CallStats {
  total: number;
  resolved: number;
  /** Calls through an imported module that is not in the repository (a dependency, the stdlib). */
  external: number;
  unresolved: number;
  /** Calls of a parameter or local variable (schema 12): no definition of the repository to link. */
  values: number;
  byTier: Partial<Record<CallTier, number>>;
}

/** How each reference was resolved: a call tier, `external`, `value` (a call of a parameter or local variable) or `unresolved`; imports `internal`/`external`/`unresolved`. */
export type RefResolution = CallTier | 'external' | 'value' | 'unresolved';
export type ImportResolution = 'internal' | 'external' | 'unresolved';

export interface ImportStats {
  total: number;
  internal: number;
  external: number;
  unresolved: number;
}

export interface ResolveOutput {
  edges: EdgeRow[];
  /** Call ref id -> how it resolved (for the files resolved). */
  refs: Map<number, RefResolution>;
  /** Import row id -> where it led (for the files resolved). */
  imports: Map<number, ImportResolution>;
  /** Every repository type's supertypes (of every file, not only those resolved): what method lookups went through. */
  supers: Map<number, number[]>;
}
