import type { RepoView } from './types.js';

/**
 * Languages whose files say which namespace or package they belong to, whatever their folder (C#
 * `namespace A.B`, Kotlin and Scala `package a.b`): the namespace -> files index, read from the files'
 * text once per resolver.
 */
export function namespaceIndex(repo: RepoView, isOwnFile: (path: string) => boolean, declared: RegExp):
  Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const file of repo.files) {
    if (!isOwnFile(file)) continue;
    const text = repo.readText(file);
    if (text === null) continue;
    const names = new Set<string>();
    for (const m of text.matchAll(declared)) names.add(m[1].replace(/\s+/g, ''));
    for (const name of names) {
      const list = index.get(name);
      if (list) list.push(file);
      else index.set(name, [file]);
    }
  }
  return index;
}
