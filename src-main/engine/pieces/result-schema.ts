// A step's structured result (TAKT's structured_output): the JSON object the model ends the step with, checked
// against the step's JSON schema with zod's own JSON Schema reader (zod is already the project's validator; no second
// one is brought in for this).
import { z } from 'zod';
import { describeIssues } from '../../../src-shared/issues';

const compiled = new Map<string, z.ZodType>();

/** The schema as a zod type, compiled once per schema text; throws with the reason when it cannot be read. */
export function compileResultSchema(schema: Record<string, unknown>): z.ZodType {
  const key = JSON.stringify(schema);
  let type = compiled.get(key);
  if (!type) {
    try {
      type = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
    } catch (error) {
      throw new Error(`not a JSON schema MAESTRO can check: ${(error as Error).message}`);
    }
    compiled.set(key, type);
  }
  return type;
}

/** The result text read as a JSON object (a ```json fence around it is allowed) and checked; or why it is not one. */
export function readResult(
  text: string,
  schema: Record<string, unknown> | undefined,
): { ok: true; value: unknown } | { ok: false; message: string } {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/.exec(text);
  let value: unknown;
  try {
    value = JSON.parse(fenced ? (fenced[1] as string) : text);
  } catch {
    return { ok: false, message: 'the result is not JSON: send only the JSON object as the message' };
  }
  if (!schema) return { ok: true, value };
  const parsed = compileResultSchema(schema).safeParse(value);
  if (!parsed.success)
    return {
      ok: false,
      message: `the result does not match the step's schema: ${describeIssues(parsed.error.issues, { whole: 'result' })}`,
    };
  return { ok: true, value: parsed.data };
}
