import fs from 'node:fs';
import path from 'node:path';

/** Writes one labelled result into a results file that keeps the other labels' results. */
export function saveResult(file, label, result) {
  let all = {};
  try {
    all = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    /* the first result */
  }
  all[label] = result;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`);
}
