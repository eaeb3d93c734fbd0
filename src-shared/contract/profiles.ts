// LLM profiles made in the app: listed (never a key), saved, deleted, and tested against their endpoint.
import { z } from 'zod';
import { empty, NonBlank, op } from './operation';

/** A profile name: also a path segment and a job's `profile` column. */
export const ProfileName = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
    'must be 1–64 letters, digits, ".", "_" or "-", starting with a letter or digit',
  );

/** An LLM profile as every output shows it: never the key, only whether there is one and its last 4 characters. */
export const ProfileView = z.object({
  name: z.string(),
  baseURL: z.string(),
  model: z.string(),
  contextWindow: z.number().int().optional(),
  temperature: z.number().optional(),
  parallelToolCalls: z.boolean().optional(),
  hasKey: z.boolean(),
  keyHint: z.string().nullable(),
  source: z.enum(['env', 'saved']),
  isDefault: z.boolean(),
});
export type ProfileView = z.infer<typeof ProfileView>;

/** A profiles file that could not be read: the env profile is still listed, the saved ones are not. */
export const ProfileLoadError = z.object({ file: z.string(), message: z.string() });

export const SaveProfileInput = z
  .object({
    name: ProfileName,
    baseURL: z
      .string()
      .trim()
      .max(2048)
      .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), 'must be an http:// or https:// URL'),
    model: NonBlank(200),
    /** Absent: keep the stored key. Empty: remove it. The value never appears in any output. */
    apiKey: z
      .string()
      .max(4096)
      .refine(
        (k) => [...k].every((c) => c.charCodeAt(0) > 0x20 && c.charCodeAt(0) !== 0x7f),
        'must not contain spaces or control characters',
      )
      .optional(),
    contextWindow: z.number().int().min(256).max(100_000_000).optional(),
    temperature: z.number().min(0).max(2).optional(),
    parallelToolCalls: z.boolean().optional(),
    makeDefault: z.boolean().optional(),
  })
  .strict();

export const profileOperations = {
  listProfiles: op({
    method: 'GET',
    path: '/profiles',
    status: 200,
    input: empty,
    output: z.object({ profiles: z.array(ProfileView), errors: z.array(ProfileLoadError) }),
  }),
  saveProfile: op({
    method: 'POST',
    path: '/profiles',
    status: 201,
    input: SaveProfileInput,
    output: z.object({ profile: ProfileView }),
  }),
  deleteProfile: op({
    method: 'POST',
    path: '/profiles/:name/delete',
    status: 200,
    input: z.object({ name: ProfileName }).strict(),
    output: z.object({ ok: z.literal(true) }),
  }),
  testProfile: op({
    method: 'POST',
    path: '/profiles/:name/test',
    status: 200,
    input: z.object({ name: ProfileName }).strict(),
    output: z.object({ ok: z.boolean(), models: z.array(z.string()), error: z.string().optional() }),
  }),
};
