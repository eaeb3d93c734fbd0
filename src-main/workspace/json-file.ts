// The app's own JSON files in the data dir (profiles, MCP tokens, schedules): read and checked against a zod schema
// with a problem that names the field (never a value: a file may hold secrets), written atomically.
import fs from 'node:fs';
import type { z } from 'zod';
import { writeFileAtomic } from './atomic-write';

export type JsonFileRead<T> =
  | { kind: 'absent' }
  | { kind: 'ok'; value: T }
  /** `problem` completes "<file> …": "cannot be read (EACCES)", "is not valid JSON", or "is not valid: <fields>". */
  | { kind: 'broken'; problem: string; invalid?: string };

export function readJsonFile<T>(file: string, schema: z.ZodType<T>): JsonFileRead<T> {
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
  const fields = parsed.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
  return { kind: 'broken', problem: `is not valid: ${fields}`, invalid: fields };
}

/** Writes `value` as pretty JSON, atomically, readable by the owner only by default. */
export function writeJsonFile(file: string, value: unknown, mode = 0o600): void {
  writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`, mode);
  fs.chmodSync(file, mode);
}
