import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { buildIndex } from '../src/indexer/build.js';
import { openReader } from '../src/store/db.js';
import { makeRepo } from './helpers.js';

// A name matched across the whole repository (a bare call nothing nearer defines, a method on a receiver
// of unknown type) stays inside the caller's language family: Django's admin JavaScript calls
// `gettext()`, which its Python also defines, and those are two different functions.
let root: string;
let db: Database.Database;
beforeAll(async () => {
  root = makeRepo({
    'app/i18n.py': 'def gettext(s):\n    return s\n\n\nclass Cache:\n    def refresh(self):\n        return 1\n',
    'app/use.py': 'def show(widget):\n    widget.redraw()\n    return shout("x")\n',
    'static/admin.js': 'function init(box) {\n  box.refresh();\n  return gettext("Show");\n}\n',
    // Same family: a page script calls a TypeScript helper and method by name, without an import.
    'web/util.ts': 'export function shout(s: string) { return s.toUpperCase(); }\nexport class Panel {\n  redraw() { return 1; }\n}\n',
    'web/page.js': 'function main(p) {\n  p.redraw();\n  return shout("x");\n}\n',
    // The JVM family: Kotlin calls a method that only a Java class defines, on a receiver of unknown type.
    'src/main/java/app/Store.java': 'package app;\n\npublic class Store {\n  public int flushAll() { return 1; }\n}\n',
    'src/main/kotlin/app/Job.kt': 'package app\n\nfun runJob(s: Any) {\n  val t = make(s)\n  t.flushAll()\n}\n',
  });
  await buildIndex(root);
  db = openReader(root);
});
afterAll(() => db?.close());

/** The call edges as `caller file:caller -> callee file:callee`. */
function calls(): string[] {
  return (db.prepare(`SELECT fs.path || ':' || s.qualified_name || ' -> ' || fd.path || ':' || d.qualified_name
    FROM edges e JOIN symbols s ON s.id = e.src_id JOIN symbols d ON d.id = e.dst_id
    JOIN files fs ON fs.id = s.file_id JOIN files fd ON fd.id = d.file_id WHERE e.kind = 'calls'`).pluck().all() as string[]).sort();
}

describe('repository-wide name matches within a language family', () => {
  it('does not link JavaScript calls to Python functions or methods of the same name, nor Python calls to TypeScript methods', () => {
    const all = calls();
    expect(all.filter((c) => c.startsWith('static/admin.js'))).toEqual([]);
    expect(all.filter((c) => c.startsWith('app/use.py'))).toEqual([]);
  });

  it('still links JavaScript to TypeScript, and Kotlin to Java, by name', () => {
    const all = calls();
    expect(all).toContain('web/page.js:main -> web/util.ts:shout');
    expect(all).toContain('web/page.js:main -> web/util.ts:Panel.redraw');
    expect(all).toContain('src/main/kotlin/app/Job.kt:runJob -> src/main/java/app/Store.java:Store.flushAll');
  });
});
