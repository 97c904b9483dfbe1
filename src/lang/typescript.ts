import { jsFamilyEntry } from './js-family.js';

/**
 * TypeScript (`.d.ts` included: hand-written declarations are where many interfaces and types live)
 * and TSX share the TypeScript queries; TSX adds JSX, where rendering `<Component />` is a call.
 */
export const typescript = jsFamilyEntry({
  id: 'typescript',
  displayName: 'TypeScript',
  extensions: ['.ts', '.mts', '.cts'],
  grammar: 'tree-sitter-typescript.wasm',
  queryDir: ['js-common', 'typescript'],
});

export const tsx = jsFamilyEntry({
  id: 'tsx',
  displayName: 'TSX',
  extensions: ['.tsx'],
  grammar: 'tree-sitter-tsx.wasm',
  queryDir: ['js-common', 'typescript', 'jsx'],
});
