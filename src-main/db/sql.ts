// What the repositories are written against: better-sqlite3's Database, or PostgresDb shaped like it
// (postgres/pg-db.ts), and the few expressions the two dialects spell differently.
import type { Database } from 'better-sqlite3';

export type Dialect = 'sqlite' | 'postgres';

export type SqlDatabase = Pick<Database, 'prepare' | 'exec' | 'transaction' | 'close' | 'open' | 'name'>;

export const dialectOf = (db: SqlDatabase): Dialect => (db as { dialect?: Dialect }).dialect ?? 'sqlite';

/**
 * The values of a JSON array bound as one text parameter, as a one-column (`value`) table for `IN (SELECT value
 * FROM …)`. `cast` names the SQL type PostgreSQL compares them as (SQLite compares by value already).
 */
export function jsonValues(dialect: Dialect, param: string, cast: 'text' | 'bigint' = 'text'): string {
  if (dialect === 'sqlite') return `json_each(${param})`;
  return cast === 'text'
    ? `json_array_elements_text(${param}::json) AS value`
    : `(SELECT v::bigint AS value FROM json_array_elements_text(${param}::json) AS v) AS vs`;
}

/** A top-level field of a JSON text column, as text (`json_extract(column, '$.field')`). */
export function jsonField(dialect: Dialect, column: string, field: string): string {
  return dialect === 'sqlite' ? `json_extract(${column}, '$.${field}')` : `(${column}::json ->> '${field}')`;
}

/** Whether a top-level field of a JSON text column holds a string. */
export function jsonFieldIsString(dialect: Dialect, column: string, field: string): string {
  return dialect === 'sqlite'
    ? `json_type(${column}, '$.${field}') = 'text'`
    : `json_typeof(${column}::json -> '${field}') = 'string'`;
}

/**
 * An INSERT of one row that returns the row's integer key (`key`: an INTEGER PRIMARY KEY, SQLite's rowid). SQLite
 * reads it from the connection (lastInsertRowid): a RETURNING clause costs a result set per row, ~20 µs a commit on
 * the engine's path from a reply to the next request. PostgreSQL returns it (RETURNING).
 */
export function prepareInsert(db: SqlDatabase, sql: string, key: string): (...params: unknown[]) => number {
  if (dialectOf(db) === 'postgres') {
    const returning = db.prepare<unknown[], Record<string, number>>(`${sql} RETURNING ${key}`);
    return (...params) => Number((returning.get(...params) as Record<string, number>)[key]);
  }
  const insert = db.prepare<unknown[]>(sql);
  return (...params) => Number(insert.run(...params).lastInsertRowid);
}
