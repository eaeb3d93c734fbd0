// What an operation of the contract is — input and output schemas, HTTP method, path and status — and the small
// schemas every area's operations share.
import { z } from 'zod';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface OperationDef<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  method: Method;
  /** Path under /api/local; `:name` segments are taken from the input object. */
  path: string;
  /** HTTP status on success. */
  status: 200 | 201;
  input: I;
  output: O;
}

export const op = <I extends z.ZodType, O extends z.ZodType>(def: OperationDef<I, O>) => def;

export const Id = z.string().min(1).max(200);
/** Text a person or agent writes: not blank, bounded, and without NUL (SQLite's length() stops at one). */
export const NonBlank = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max)
    .refine((text) => !text.includes('\u0000'), 'must not contain a NUL character');
export const empty = z.object({}).strict();
export const taskRef = z.object({ taskId: Id }).strict();
