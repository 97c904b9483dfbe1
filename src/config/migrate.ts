import fs from 'node:fs';
import path from 'node:path';
import { CgError } from '../errors.js';
import { CONFIG_FILE, differencesFromDefaults, LEGACY_CONFIG_FILE, parseConfigText, type ConfigFile } from './config.js';

export interface MigrateResult {
  /** The file written (absolute), or null when there was nothing to move. */
  written: string | null;
  /** The old file, now removed (absolute), or null when there was none. */
  removed: string | null;
  /** What the new file holds: only the values that differ from the defaults. */
  settings: ConfigFile;
}

/**
 * `cg config migrate`: the old, git-ignored `.codegraph/config.json` becomes a `cg.config.json` at the
 * root holding only what differs from the defaults (old `cg init`s wrote every default into it, which
 * would freeze them). The old file is removed, so one file is in effect. An existing cg.config.json is
 * never overwritten: merging two files is the user's decision.
 */
export function migrateLegacyConfig(root: string): MigrateResult {
  const legacy = path.join(root, LEGACY_CONFIG_FILE);
  const target = path.join(root, CONFIG_FILE);
  if (!fs.existsSync(legacy)) return { written: null, removed: null, settings: {} };
  const settings = differencesFromDefaults(parseConfigText(fs.readFileSync(legacy, 'utf8'), LEGACY_CONFIG_FILE));
  if (fs.existsSync(target)) {
    throw new CgError('usage', `${CONFIG_FILE} already exists, so ${LEGACY_CONFIG_FILE} was not moved into it`,
      `Copy what you still want from ${LEGACY_CONFIG_FILE} into ${CONFIG_FILE} by hand, then delete ${LEGACY_CONFIG_FILE}. `
      + `It differs from the defaults in: ${JSON.stringify(settings)}.`);
  }
  let written: string | null = null;
  if (Object.keys(settings).length) {
    fs.writeFileSync(target, `${JSON.stringify(settings, null, 2)}\n`);
    written = target;
  }
  fs.rmSync(legacy);
  return { written, removed: legacy, settings };
}
