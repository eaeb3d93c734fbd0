// The profile form's draft rules without a page: a preset's URL only until one is typed, the key kept / replaced /
// removed, optional fields only when typed, audio kept as saved, and what "Test connection" asks with.
import { describe, expect, it } from 'vitest';
import type { ProfileView } from '../../../src-shared/contract';
import { PROVIDER_PRESETS } from '../../../src-shared/contract/profiles';
import { initialDraft, modelsInput, saveInput, withBaseURL, withKind } from './profile-draft';

const saved = {
  name: 'work',
  kind: 'generic',
  baseURL: 'http://127.0.0.1:8080/v1',
  model: 'm',
  hasKey: true,
  media: ['audio'],
} as unknown as ProfileView;

describe('the profile draft', () => {
  it('a new profile from a preset: its name and URL; another kind moves the URL until one is typed', () => {
    const draft = initialDraft(null, 'openai', true);
    expect(draft).toMatchObject({ name: 'openai', baseURL: PROVIDER_PRESETS.openai.baseURL, makeDefault: true });
    expect(initialDraft(null, 'generic').name).toBe('default');
    const moved = withKind(draft, 'deepseek');
    expect(moved.baseURL).toBe(PROVIDER_PRESETS.deepseek.baseURL);
    const typed = withBaseURL(moved, 'http://my.host/v1');
    expect(withKind(typed, 'openai').baseURL).toBe('http://my.host/v1');
    expect(withKind(withBaseURL(typed, ' '), 'openai').baseURL).toBe(PROVIDER_PRESETS.openai.baseURL);
    // An existing profile's own URL counts as typed.
    expect(withKind(initialDraft(saved), 'openai').baseURL).toBe(saved.baseURL);
  });

  it('the save: the key left out when empty, sent when typed, emptied when removed; optional fields only when typed', () => {
    const draft = initialDraft(saved);
    expect(saveInput(draft, saved)).toEqual({
      name: 'work',
      kind: 'generic',
      baseURL: 'http://127.0.0.1:8080/v1',
      model: 'm',
      media: ['audio'],
    });
    expect(saveInput({ ...draft, apiKey: 'sk-new' }, saved).apiKey).toBe('sk-new');
    expect(saveInput({ ...draft, apiKey: 'sk-new', removeKey: true }, saved).apiKey).toBe('');
    const tuned = saveInput({ ...draft, contextWindow: '8192', temperature: '0.5', images: true }, saved);
    expect(tuned).toMatchObject({ contextWindow: 8192, temperature: 0.5, media: ['image', 'audio'] });
    expect(saveInput({ ...initialDraft(null), name: ' x ' }, null)).toEqual({
      name: 'x',
      kind: 'generic',
      baseURL: '',
      model: '',
    });
  });

  it('"Test connection": the typed key, no key when removed, else the saved profile’s own (by name)', () => {
    const draft = initialDraft(saved);
    expect(modelsInput(draft, saved)).toEqual({ baseURL: saved.baseURL, kind: 'generic', name: 'work' });
    expect(modelsInput({ ...draft, apiKey: 'sk-t' }, saved)).toEqual({
      baseURL: saved.baseURL,
      kind: 'generic',
      apiKey: 'sk-t',
    });
    expect(modelsInput({ ...draft, apiKey: 'sk-t', removeKey: true }, saved).apiKey).toBe('');
    expect(modelsInput(initialDraft(null), null)).toEqual({ baseURL: '', kind: 'generic' });
  });
});
