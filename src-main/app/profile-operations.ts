// The LLM profile operations: list, save, delete and test. Outputs show a key only as `hasKey` and its last 4
// characters; the env profile is read-only here.
import type { OpOutput, OpParsedInput } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import { checkProfile } from '../llm/profile-check';
import { ProfileKeyError } from '../llm/profile-store';
import { ENV_PROFILE, type LlmProfile } from '../llm/profiles';
import { ConfigFileError } from '../workspace/json-file';
import type { AppContext } from './context';

export function listProfiles(ctx: AppContext): OpOutput<'listProfiles'> {
  return ctx.profiles.list();
}

export function saveProfile(ctx: AppContext, input: OpParsedInput<'saveProfile'>): OpOutput<'saveProfile'> {
  if (input.name === ENV_PROFILE || ctx.profiles.isFixed(input.name)) {
    throw new MaestroError(
      'conflict',
      `the profile ${input.name} comes from the environment and cannot be changed here`,
    );
  }
  try {
    return { profile: ctx.profiles.save(input) };
  } catch (error) {
    if (error instanceof ConfigFileError) throw new MaestroError('conflict', error.message);
    throw error;
  }
}

export function deleteProfile(ctx: AppContext, { name }: OpParsedInput<'deleteProfile'>): OpOutput<'deleteProfile'> {
  if (ctx.profiles.isFixed(name)) {
    throw new MaestroError('conflict', `the profile ${name} comes from the environment and cannot be deleted here`);
  }
  try {
    if (!ctx.profiles.delete(name)) throw new MaestroError('not_found', `no LLM profile named ${name}`);
  } catch (error) {
    if (error instanceof ConfigFileError) throw new MaestroError('conflict', error.message);
    throw error;
  }
  return { ok: true };
}

export async function testProfile(
  ctx: AppContext,
  { name }: OpParsedInput<'testProfile'>,
): Promise<OpOutput<'testProfile'>> {
  let profile: LlmProfile | undefined;
  try {
    profile = ctx.profiles.get(name);
  } catch (error) {
    if (error instanceof ProfileKeyError) return { ok: false, models: [], error: error.message };
    throw error;
  }
  if (!profile) throw new MaestroError('not_found', `no LLM profile named ${name}`);
  return checkProfile(profile);
}

export async function listModels(ctx: AppContext, draft: OpParsedInput<'listModels'>): Promise<OpOutput<'listModels'>> {
  let apiKey = draft.apiKey ?? '';
  if (draft.apiKey === undefined && draft.name !== undefined) {
    let stored: LlmProfile | undefined;
    try {
      stored = ctx.profiles.get(draft.name);
    } catch (error) {
      if (error instanceof ProfileKeyError) return { ok: false, models: [], error: error.message };
      throw error;
    }
    // The stored key goes only to the server it was saved for.
    if (stored && sameURL(stored.baseURL, draft.baseURL)) apiKey = stored.apiKey;
  }
  return checkProfile({ name: draft.name ?? 'draft', baseURL: draft.baseURL, model: '', kind: draft.kind, apiKey });
}

const sameURL = (a: string, b: string): boolean => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
