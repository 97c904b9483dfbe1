/**
 * Data access: which functions read or write a field, a module-level constant or global, or a
 * database table. The query files capture candidate nodes (queries/README.md, "Data access"); these
 * helpers turn them into records, whatever the language:
 *
 *   field   `self.total = x` (write), `order.total` (read): receiver and name, resolved later through
 *           the receiver's type (self, a declared or constructed type) to the type that holds the field
 *   global  `MAX_ITEMS` (read), `counter = 1` under `global counter` (write): a module-level name
 *   table   `"SELECT id FROM users JOIN orders ..."` (reads users and orders), `"INSERT INTO users"`
 *           (writes), `DB::table('users')->insert()`, `op.create_table('users')`, `prisma.user.create()`
 *   model   `User.objects.filter()`, `User::where()`, `session.query(User)`: the model class itself
 *
 * A table is linked to the class that declares it (`__tablename__`, `db_table`, `$table`, `@Table`,
 * `@Entity`) or, failing that, to a class named like it (`users` -> `User`), at lower confidence.
 */

export type AccessKind = 'read' | 'write';
export type AccessTarget = 'field' | 'global' | 'table' | 'model';

export interface Access {
  /** The function, method or endpoint that reads or writes (constants, for a query string kept in one). */
  symbol: number;
  kind: AccessKind;
  what: AccessTarget;
  /** The field, global or table name; for a model, its class as written. */
  name: string;
  /** What a field is reached through, as written (`self`, `order`, `$this->repo`); null otherwise. */
  receiver: string | null;
  /** The receiver's declared or constructed type, when the file says it. */
  receiverType: string | null;
  line: number;
  inError: boolean;
}

/** A class that declares the table it maps (`__tablename__ = 'users'`). */
export interface TableDeclaration {
  /** The class (an index into the file's symbols). */
  symbol: number;
  table: string;
  line: number;
}

/** At most this many accesses are kept per function: a generated accessor soup says little more. */
export const MAX_ACCESSES_PER_SYMBOL = 200;

const SQL_START = /^\s*(select|insert|update|delete|with|replace|merge)\b/i;
/** A statement's shape, so a message that starts with "Update" is not taken for one. */
const SQL_SHAPE = /^\s*(?:select\b[\s\S]*\bfrom\b|insert\s+(?:or\s+\w+\s+)?into\b|update\s+\S+\s+set\b|delete\s+from\b|with\b[\s\S]*\bas\s*\(|(?:replace|merge)\s+into\b)/i;
const TABLE = String.raw`(?:[\x60"\[]?[A-Za-z_][\w$]*[\x60"\]]?\.)?[\x60"\[]?([A-Za-z_][\w$]*)[\x60"\]]?`;
const READ_CLAUSE = new RegExp(String.raw`\b(?:from|join)\s+${TABLE}`, 'gi');
const WRITE_CLAUSE = new RegExp(String.raw`\b(?:insert\s+(?:or\s+\w+\s+)?into|update|delete\s+from|replace\s+into|merge\s+into)\s+${TABLE}`, 'gi');
/** Words that follow FROM and the like without naming a table. */
const NOT_TABLES = new Set(['select', 'where', 'set', 'values', 'lateral', 'unnest', 'only', 'dual', 'the', 'a', 'an', 'this', 'that',
  'ignore', 'or', 'into', 'table']);

/**
 * The tables a SQL string reads (FROM, JOIN) and writes (INSERT INTO, UPDATE, DELETE FROM), or none
 * when the string does not start like a statement (prose that says "select from the list").
 */
export function sqlTables(sql: string): { kind: AccessKind; table: string }[] {
  if (!SQL_START.test(sql) || !SQL_SHAPE.test(sql)) return [];
  const out: { kind: AccessKind; table: string }[] = [];
  const seen = new Set<string>();
  const add = (kind: AccessKind, table: string) => {
    const key = `${kind}:${table}`;
    if (NOT_TABLES.has(table.toLowerCase()) || seen.has(key)) return;
    seen.add(key);
    out.push({ kind, table });
  };
  const written: [number, number][] = [];
  for (const m of sql.matchAll(WRITE_CLAUSE)) {
    add('write', m[1]);
    written.push([m.index, m.index + m[0].length]);
  }
  // The FROM of `DELETE FROM t` is part of the write, not a read of t.
  for (const m of sql.matchAll(READ_CLAUSE)) if (!written.some(([a, b]) => m.index >= a && m.index < b)) add('read', m[1]);
  return out;
}

const WRITE_METHOD = /^(create|insert|update|upsert|delete|destroy|remove|save|store|put|drop|truncate|add|alter|rename|bulk_?create|bulk_?update|get_or_create|update_or_create|first_or_create|create_?many|update_?many|delete_?many|increment|decrement|force_?delete|create_table|drop_table|add_column|drop_column|alter_column|rename_table|create_index|drop_index|table)$/i;

/** Whether an ORM or schema call reads or writes: `create`, `update`, `delete`, `save`, migrations write; the rest reads. */
export function methodAccess(method: string): AccessKind {
  return WRITE_METHOD.test(method) ? 'write' : 'read';
}

/**
 * The key under which a table and a class name meet: lower case, letters and digits only, without a
 * trailing plural `s` (`users`, `User` -> `user`; `order_items`, `OrderItem` -> `orderitem`).
 */
export function tableKey(name: string): string {
  const k = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (k.endsWith('ies')) return `${k.slice(0, -3)}y`;
  if (/(ss|x|z|ch|sh|us)es$/.test(k)) return k.slice(0, -2);
  if (/(ss|us|is)$/.test(k)) return k;
  return k.replace(/s$/, '');
}

/** Whether a name looks like a constant (`MAX_ITEMS`, `API_URL`): all capitals, at least two characters. */
export function isConstantName(name: string): boolean {
  return /^[A-Z][A-Z0-9_]*[A-Z0-9]$/.test(name) && /[A-Z]{2}|_/.test(name);
}
