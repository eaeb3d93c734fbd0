// "Test connection" for a profile: lists the backend's models through the SDK with a short timeout. The answer and
// its error never hold the key, even when a backend echoes it.

import OpenAI from 'openai';
import type { JobErrorCode } from '../../src-shared/entities';
import { contextWindowOf } from './context-window';
import type { LlmProfile } from './profiles';
import { oneOffSdk } from './sdk';

export const PROFILE_CHECK_TIMEOUT_MS = 10_000;
/** More model ids than a picker can show are cut. */
const MAX_MODELS = 500;

export interface ProfileCheck {
  ok: boolean;
  models: string[];
  /** The context windows the list states, by model id (only where the server says). */
  contextWindows?: Record<string, number>;
  error?: string;
  /** What the person can fix, when the failure says so (the same codes a job's error carries). */
  code?: JobErrorCode;
}

export async function checkProfile(profile: LlmProfile, timeoutMs = PROFILE_CHECK_TIMEOUT_MS): Promise<ProfileCheck> {
  const sdk = oneOffSdk(profile, timeoutMs);
  try {
    const page = await sdk.models.list();
    const listed = page.data.slice(0, MAX_MODELS);
    const contextWindows: Record<string, number> = {};
    for (const m of listed) {
      const window = contextWindowOf(m);
      if (window !== undefined) contextWindows[m.id] = window;
    }
    const said = Object.keys(contextWindows).length > 0 ? { contextWindows } : {};
    return { ok: true, models: listed.map((m) => m.id), ...said };
  } catch (error) {
    const code = codeOf(error);
    return { ok: false, models: [], error: redact(reason(error), profile.apiKey), ...(code ? { code } : {}) };
  }
}

function codeOf(error: unknown): JobErrorCode | undefined {
  if (error instanceof OpenAI.APIConnectionError) return 'profile_unreachable';
  if (error instanceof OpenAI.APIError && (error.status === 401 || error.status === 403)) return 'profile_key_refused';
  return undefined;
}

function reason(error: unknown): string {
  if (error instanceof OpenAI.APIConnectionTimeoutError) return 'the backend did not answer in time';
  if (error instanceof OpenAI.APIConnectionError) {
    const cause = (error.cause as NodeJS.ErrnoException | undefined)?.code;
    return `cannot reach the backend${cause ? ` (${cause})` : ''}`;
  }
  if (error instanceof OpenAI.APIError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

function redact(text: string, key: string): string {
  return key ? text.split(key).join('[redacted]') : text;
}
