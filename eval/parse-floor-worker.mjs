// Worker for eval/bench-index.mjs: parses files and nothing else (the floor cg's extraction sits on).
// `grammar` is the path of the grammar's .wasm file (grammarPath in src/lang/loader.ts).
import fs from 'node:fs';
import path from 'node:path';
import { Parser, Language } from 'web-tree-sitter';

let parser = null;

export default async function parseAll({ root, files, grammar }) {
  if (!parser) {
    await Parser.init();
    const lang = await Language.load(grammar);
    parser = new Parser();
    parser.setLanguage(lang);
  }
  let nodes = 0;
  for (const f of files) {
    const tree = parser.parse(fs.readFileSync(path.join(root, f), 'utf8'));
    nodes += tree.rootNode.descendantCount;
    tree.delete();
  }
  return nodes;
}
