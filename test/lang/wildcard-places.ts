import { Query } from 'web-tree-sitter';
import { loadLanguage } from '../../src/lang/loader.js';
import { languageById } from '../../src/lang/registry.js';

/**
 * Queries write a wildcard with a node type's fields (`(_ object: … property: …)`) where only that
 * type can stand, because tree-sitter's query compiler analyses every typed node that has children and
 * skips wildcards (queries/README.md, "Compile cost"). The query is the same only while no other node
 * type fits the place. tree-sitter refuses a pattern that cannot match, so this returns every node type
 * of the language's grammar that, put in place of T in `node`, makes `place` (with X for the node)
 * compile.
 */
export async function typesAdmitted(languageId: string): Promise<(place: string, node: string) => string[]> {
  const language = (await loadLanguage(languageById(languageId))).parser.language!;
  const named = [...new Set(Array.from({ length: language.nodeTypeCount }, (_, i) => i)
    .filter((i) => language.nodeTypeIsNamed(i) && language.nodeTypeIsVisible(i)).map((i) => language.nodeTypeForId(i)!))]
    .filter((t) => /^[a-z_][a-z0-9_]*$/i.test(t));
  const compiles = (pattern: string): boolean => {
    try {
      new Query(language, pattern).delete();
      return true;
    } catch {
      return false;
    }
  };
  // Each compile costs a few ms: first the node types that have the node's last field at all.
  const owners = new Map<string, string[]>();
  const ownersOf = (field: string): string[] => {
    if (!owners.has(field)) owners.set(field, named.filter((t) => compiles(`(${t} ${field}: (_))`)));
    return owners.get(field)!;
  };
  return (place, node) => {
    const field = [...node.matchAll(/(\w+):/g)].at(-1)![1];
    return ownersOf(field).filter((t) => compiles(place.replace('X', node.replace('T', t)))).sort();
  };
}
