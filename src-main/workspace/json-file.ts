// The app's JSON config files — its own in the data dir (profiles, MCP tokens, schedules, settings, webhooks) and a
// workspace's `.maestro/*.json` (MCP servers, Auto Prompter, Tool Policy): read and checked against a zod schema, with
// one error that names the file and the field, never a value (a file may hold secrets); written atomically.
import fs from 'node:fs';
import type { z } from 'zod';
import { CodedError } from '../../src-shared/errors';
import { describeIssues, dottedPath } from '../../src-shared/issues';
import { writeFileAtomic } from './atomic-write';

export interface ConfigFileErrorOptions {
  /** The field at fault as the file spells it (`mcpServers.github.url`); absent when the file as a whole is. */
  field?: string;
  /** `label`: "<file>: <why>"; `clause`: "<file> <why>", for a `why` that reads on from the name ("is not valid JSON"). */
  form?: 'label' | 'clause';
  /** What the app does instead, after "; " ("webhooks are off"). */
  instead?: string;
}

/** A config file that cannot be used (or written): which file, which field when one is at fault, and why. */
export class ConfigFileError extends CodedError {
  readonly code = 'config_file_broken';
  readonly field: string | null;
  constructor(
    readonly file: string,
    readonly why: string,
    options: ConfigFileErrorOptions = {},
  ) {
    const { form = 'label', instead } = options;
    super(`${file}${form === 'label' ? ': ' : ' '}${why}${instead ? `; ${instead}` : ''}`);
    this.field = options.field ?? null;
  }
}

/** How a data-dir file names a field in its messages: `a.0.b` unless the file says otherwise (`a[0].b`). */
export type FieldName = (path: readonly PropertyKey[]) => string;

export type JsonFileRead<T> =
  | { kind: 'absent' }
  | { kind: 'ok'; value: T }
  /** `problem` completes "<file> …": "cannot be read (EACCES)", "is not valid JSON", or "is not valid: <fields>". */
  | { kind: 'broken'; problem: string; invalid?: string; field?: string };
type BrokenRead = Extract<JsonFileRead<unknown>, { kind: 'broken' }>;

/** A data-dir file read and checked; the problem never quotes its text, only the fields (at most three) at fault. */
export function readJsonFile<T>(
  file: string,
  schema: z.ZodType<T>,
  fieldName: FieldName = dottedPath,
): JsonFileRead<T> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? { kind: 'absent' } : { kind: 'broken', problem: `cannot be read (${code ?? 'error'})` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // The parser's message may quote the file's text; say where instead.
    return { kind: 'broken', problem: 'is not valid JSON' };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { kind: 'ok', value: parsed.data };
  const fields = describeIssues(parsed.error.issues, { whole: '(root)', limit: 3, name: fieldName });
  const field = fieldName(parsed.error.issues[0]?.path ?? []) || undefined;
  return { kind: 'broken', problem: `is not valid: ${fields}`, invalid: fields, ...(field ? { field } : {}) };
}

/** The error of a broken data-dir file: "<file> is not a valid <what>: <fields>" when fields are at fault. */
export function brokenFileError(file: string, read: BrokenRead, how: { what?: string; instead?: string } = {}) {
  const why = how.what && read.invalid ? `is not a valid ${how.what}: ${read.invalid}` : read.problem;
  return new ConfigFileError(file, why, { form: 'clause', field: read.field, instead: how.instead });
}

/** Writes `value` as pretty JSON, atomically, readable by the owner only by default. */
export function writeJsonFile(file: string, value: unknown, mode = 0o600): void {
  writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`, mode);
  fs.chmodSync(file, mode);
}

/** A workspace config file's text; null when there is none. Throws ConfigFileError when it cannot be read. */
export function readConfigText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    throw new ConfigFileError(file, `cannot be read (${code ?? 'error'})`);
  }
}

/** A workspace config file's JSON, checked against its schema; `file` is used in error messages only. */
export function parseConfigJson<T>(text: string, file: string, schema: z.ZodType<T>): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigFileError(file, `not valid JSON (${(error as Error).message})`);
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const field = dottedPath(parsed.error.issues[0]?.path ?? []) || undefined;
  throw new ConfigFileError(
    file,
    describeIssues(parsed.error.issues, { whole: '(top level)' }),
    field ? { field } : {},
  );
}

/**
 * A data-dir JSON file kept in memory: read once (absent → `empty`; broken → `error`, and every write refused, so a
 * file a person can still repair is never overwritten), written atomically. `check` adds a rule the schema cannot say.
 */
export class JsonFileStore<T> {
  private current: T;
  readonly error: ConfigFileError | null = null;

  constructor(
    readonly file: string,
    schema: z.ZodType<T>,
    empty: T,
    what: string,
    check: (value: T) => ConfigFileError | null = () => null,
  ) {
    this.current = empty;
    const read = readJsonFile(file, schema);
    if (read.kind === 'broken') this.error = brokenFileError(file, read, { what });
    else if (read.kind === 'ok') {
      this.error = check(read.value);
      if (!this.error) this.current = read.value;
    }
  }

  get data(): T {
    return this.current;
  }

  /** Throws when the file is broken: it is not overwritten. */
  assertWritable(): void {
    if (this.error) {
      const why = `cannot be read, so it is not overwritten: ${this.error.message}`;
      throw new ConfigFileError(this.file, why, { form: 'clause' });
    }
  }

  write(next: T): void {
    this.assertWritable();
    try {
      writeJsonFile(this.file, next);
    } catch (error) {
      const why = `cannot be written: ${(error as NodeJS.ErrnoException).code ?? 'error'}`;
      throw new ConfigFileError(this.file, why, { form: 'clause' });
    }
    this.current = next;
  }
}

/** A file's version on disk: inode, size and mtime (a file written by rename gets a new inode at every write). */
export function fileVersion(file: string): string {
  try {
    const stat = fs.statSync(file);
    return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return 'absent';
  }
}

/** `read()`'s answer, read again only when the file's version changed: for a file asked at every job start. */
export interface Versioned<T> {
  get(): T;
  /** After a write of our own (its version could match the last read's within the clock's grain). */
  forget(): void;
}

export function byVersion<T>(file: string, read: () => T): Versioned<T> {
  let last: { version: string; value: T } | null = null;
  return {
    get() {
      const version = fileVersion(file);
      if (last?.version !== version) last = { version, value: read() };
      return last.value;
    },
    forget() {
      last = null;
    },
  };
}
