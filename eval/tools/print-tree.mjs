#!/usr/bin/env node
// Prints a file's tree-sitter syntax tree (named nodes, fields, leaf text), for writing query files.
// Usage: node eval/tools/print-tree.mjs path/to/file.ext [--language id]
import fs from 'node:fs';
import { Parser, Language } from 'web-tree-sitter';
import { languageForFile, languageById } from '../../dist/lang/registry.js';
import { grammarPath } from '../../dist/lang/loader.js';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
const langFlag = args.indexOf('--language');
if (!file) {
  console.error('usage: node eval/tools/print-tree.mjs FILE [--language ID]');
  process.exit(2);
}
const spec = langFlag >= 0 ? languageById(args[langFlag + 1]) : languageForFile(file);
if (!spec) {
  console.error(`no language for ${file}; pass --language`);
  process.exit(2);
}
await Parser.init();
const lang = await Language.load(grammarPath(spec));
const parser = new Parser();
parser.setLanguage(lang);
const tree = parser.parse(fs.readFileSync(file, 'utf8'));
const print = (n, depth, field) => {
  const leaf = n.childCount === 0 ? ` ${JSON.stringify(n.text)}` : '';
  const flags = `${n.isError ? ' ERROR' : ''}${n.isMissing ? ' MISSING' : ''}`;
  console.log(`${'  '.repeat(depth)}${field ? `${field}: ` : ''}${n.isNamed ? n.type : JSON.stringify(n.type)} [${n.startPosition.row + 1}]${leaf}${flags}`);
  for (let i = 0; i < n.childCount; i++) print(n.child(i), depth + 1, n.fieldNameForChild(i));
};
print(tree.rootNode, 0, null);
