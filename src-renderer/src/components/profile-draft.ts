// What the profile form holds before a save, and what it sends: the save (the key kept, replaced or removed; the
// optional fields only when typed) and "Test connection"'s draft. Pure, so the rules are tested without a page.
import type { ProfileView } from '../../../src-shared/contract';
import { PROVIDER_PRESETS, type ProviderKind } from '../../../src-shared/contract/profiles';
import type { OpInput } from '../api/client';

export interface ProfileDraft {
  name: string;
  kind: ProviderKind;
  baseURL: string;
  /** A URL the user typed (or the profile's own) is never replaced by a preset. */
  urlTyped: boolean;
  model: string;
  /** Empty keeps the stored key. */
  apiKey: string;
  removeKey: boolean;
  contextWindow: string;
  temperature: string;
  makeDefault: boolean;
  images: boolean;
}

/** The form as it opens: the profile's values, or a new one from its preset (first run: made the default). */
export function initialDraft(profile: ProfileView | null, preset?: ProviderKind, firstRun = false): ProfileDraft {
  return {
    name: profile?.name ?? (preset ? presetName(preset) : ''),
    kind: profile?.kind ?? preset ?? 'generic',
    baseURL: profile?.baseURL ?? (preset ? PROVIDER_PRESETS[preset].baseURL : ''),
    urlTyped: profile !== null,
    model: profile?.model ?? '',
    apiKey: '',
    removeKey: false,
    contextWindow: profile?.contextWindow?.toString() ?? '',
    temperature: profile?.temperature?.toString() ?? '',
    makeDefault: firstRun,
    images: profile?.media?.includes('image') ?? false,
  };
}

/** Another kind picked: its preset base URL, unless one was typed. */
export function withKind(draft: ProfileDraft, kind: ProviderKind): ProfileDraft {
  return { ...draft, kind, baseURL: draft.urlTyped ? draft.baseURL : PROVIDER_PRESETS[kind].baseURL };
}

/** A base URL typed: kept over any preset while it is not empty. */
export function withBaseURL(draft: ProfileDraft, baseURL: string): ProfileDraft {
  return { ...draft, baseURL, urlTyped: baseURL.trim() !== '' };
}

/** The save (without the limits and prices, which their own fields add). */
export function saveInput(draft: ProfileDraft, profile: ProfileView | null): OpInput<'saveProfile'> {
  const { name, kind, baseURL, model, apiKey, removeKey, contextWindow, temperature } = draft;
  const input: OpInput<'saveProfile'> = { name: name.trim(), kind, baseURL: baseURL.trim(), model };
  if (removeKey) input.apiKey = '';
  else if (apiKey !== '') input.apiKey = apiKey;
  if (contextWindow.trim() !== '') input.contextWindow = Number(contextWindow);
  if (temperature.trim() !== '') input.temperature = Number(temperature);
  if (profile?.parallelToolCalls !== undefined) input.parallelToolCalls = profile.parallelToolCalls;
  // Images from the form; audio as it was saved (the bridge can set it).
  const media = [...(draft.images ? (['image'] as const) : []), ...(profile?.media ?? []).filter((m) => m !== 'image')];
  if (media.length > 0 || profile?.media) input.media = media;
  if (draft.makeDefault) input.makeDefault = true;
  return input;
}

/** What "Test connection" asks with: the typed key, no key, or (an edited profile) its stored one. */
export function modelsInput(draft: ProfileDraft, profile: ProfileView | null): OpInput<'listModels'> {
  const input: OpInput<'listModels'> = { baseURL: draft.baseURL.trim(), kind: draft.kind };
  if (draft.apiKey !== '' && !draft.removeKey) input.apiKey = draft.apiKey;
  else if (draft.removeKey) input.apiKey = '';
  // An edited profile's stored key is used by main only for the URL it was saved with.
  else if (profile) input.name = profile.name;
  return input;
}

/** The name a new profile of a preset starts with: the kind itself, or "default" for a generic server. */
function presetName(kind: ProviderKind): string {
  return kind === 'generic' ? 'default' : kind;
}
