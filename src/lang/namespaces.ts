import type { RepoView } from './types.js';

/**
 * Languages whose files say which namespace or package they belong to, whatever their folder (C#
 * `namespace A.B`, Kotlin and Scala `package a.b`, Elixir `defmodule A.B`): the files that declare a
 * name, found through an index read from the files' text on the first lookup.
 */
export function declaredIn(repo: RepoView, isOwnFile: (path: string) => boolean, declared: RegExp):
  (name: string) => string[] | null {
  let index: Map<string, string[]> | null = null;
  const build = () => {
    const map = new Map<string, string[]>();
    for (const file of repo.files) {
      if (!isOwnFile(file)) continue;
      const text = repo.readText(file);
      if (text === null) continue;
      for (const name of new Set([...text.matchAll(declared)].map((m) => m[1].replace(/\s+/g, '')))) {
        const list = map.get(name);
        if (list) list.push(file);
        else map.set(name, [file]);
      }
    }
    return map;
  };
  return (name) => (index ??= build()).get(name) ?? null;
}
