import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { CgError, errorMessage } from '../errors.js';
import type { RegistryDb } from './db.js';
import { addMembers, addProject, createCollection, projectByName, NAME_PATTERN, type Collection } from './projects.js';

/**
 * A collection manifest: collections that a team keeps in a file (in git, next to its repositories)
 * rather than registering by hand. Paths are relative to the manifest; a project not registered yet is
 * registered when the manifest gives its path.
 *
 *     collections:
 *       - name: pm-plugins
 *         description: Popup Maker and its add-ons
 *         projects:
 *           - popup-maker                      # already registered
 *           - { name: pum-forms, path: ../pum-forms }
 */
const name = z.string().regex(NAME_PATTERN, 'letters, digits, dots, dashes or underscores');
const Manifest = z.strictObject({
  collections: z.array(z.strictObject({
    name,
    description: z.string().max(1000).optional(),
    projects: z.array(z.union([name, z.strictObject({ name, path: z.string().min(1).max(4096) })])).max(1000),
  })).min(1).max(200),
});

export interface ManifestLoad {
  collections: Collection[];
  /** Projects the manifest registered (they still need indexing). */
  registered: string[];
}

export function loadManifest(db: RegistryDb, file: string): ManifestLoad {
  const abs = path.resolve(file);
  let text: string;
  try {
    text = fs.readFileSync(abs, 'utf8');
  } catch (err) {
    throw new CgError('not_found', `Cannot read the manifest ${abs}: ${errorMessage(err)}`, 'Pass the path of a collections YAML file.');
  }
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (err) {
    throw new CgError('usage', `${abs} is not valid YAML: ${errorMessage(err)}`, 'Fix the file; see README.md, "Many projects".');
  }
  const parsed = Manifest.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`).join('; ');
    throw new CgError('usage', `${abs} is not a collection manifest: ${issues}`,
      'It needs `collections:`, a list of {name, description?, projects: [name | {name, path}]}; see README.md, "Many projects".');
  }
  const registered: string[] = [];
  const collections = db.transaction(() => parsed.data.collections.map((c) => {
    const members: string[] = [];
    for (const p of c.projects) {
      if (typeof p === 'string') members.push(p);
      else {
        if (!projectByName(db, p.name)) {
          addProject(db, { name: p.name, path: path.resolve(path.dirname(abs), p.path) });
          registered.push(p.name);
        }
        members.push(p.name);
      }
    }
    createCollection(db, c.name, { description: c.description ?? null, source: abs });
    return addMembers(db, c.name, members);
  }))();
  return { collections, registered };
}
