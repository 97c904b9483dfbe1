import { jsFamilyEntry } from './js-family.js';

/** JavaScript: ES modules and CommonJS, with JSX (the grammar parses it in any of these files). */
export const javascript = jsFamilyEntry({
  id: 'javascript',
  displayName: 'JavaScript',
  extensions: ['.js', '.jsx', '.mjs', '.cjs'],
  grammar: 'tree-sitter-javascript.wasm',
  queryDir: ['js-common', 'javascript', 'jsx'],
});
