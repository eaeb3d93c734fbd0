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

// A GET operation's input arrives as its query string (strings) over HTTP and as typed values over IPC: these take both.

/** A whole number, or its decimal digits. */
export const QueryInt = (min: number, max: number) =>
  z
    .union(
      [
        z.number(),
        z
          .string()
          .regex(/^[0-9]{1,9}$/)
          .transform(Number),
      ],
      { error: 'must be a whole number' },
    )
    .pipe(z.number().int('must be a whole number').min(min).max(max));

/** true or false, or their words. */
export const QueryBool = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')], {
  error: 'must be true or false',
});

/** A list of one of the values, or the values separated by commas. */
export const QueryList = <T extends z.ZodType<unknown, string>>(item: T, max: number) =>
  z
    .union([z.array(z.string()), z.string().transform((v) => v.split(','))], { error: 'must be a list' })
    .pipe(z.array(item).min(1, 'must name at least one').max(max));
