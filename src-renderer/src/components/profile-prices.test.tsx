// A profile's prices in its form (issue 23 point 8): a bad number is said under its field as typed, a price needs
// input and output, all empty names the preset's dated list price or says there is none; what a save sends.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ProfileView } from '../../../src-shared/contract';
import type { OpInput } from '../api/client';
import { ProfilePriceFields, useProfilePrices } from './ProfilePriceFields';

type Text = { input: string; cachedInput: string; output: string };

const html = (text: Text, model = 'm', kind: 'generic' | 'openai' = 'generic', baseURL = 'http://127.0.0.1:8/v1') =>
  renderToStaticMarkup(
    <ProfilePriceFields
      prices={{ text, setText: () => {}, apply: () => {} }}
      model={model}
      kind={kind}
      baseURL={baseURL}
    />,
  );

/** Applies the form's prices, as loaded from `profile`, to `input` (a hook needs a component around it). */
function Probe({ profile, input }: { profile: ProfileView; input: OpInput<'saveProfile'> }) {
  useProfilePrices(profile).apply(input);
  return null;
}

/** What a save of a profile with these prices on it sends. */
function applied(prices: ProfileView['prices']): OpInput<'saveProfile'> {
  const input: OpInput<'saveProfile'> = { name: 'p', baseURL: 'http://x/v1', model: 'm' };
  renderToStaticMarkup(<Probe profile={{ prices } as ProfileView} input={input} />);
  return input;
}

describe('ProfilePriceFields', () => {
  it('says under the field what is wrong as it is typed, never silently', () => {
    const negative = html({ input: '-1', cachedInput: '', output: '2' });
    expect(negative).toContain('data-testid="profile-error-price-input"');
    expect(negative).toContain('Enter a number of dollars, 0 or more.');
    expect(negative).toMatch(
      /aria-invalid="true"[^>]*data-testid="profile-field-price-input"|data-testid="profile-field-price-input"[^>]*aria-invalid="true"/,
    );
    expect(html({ input: 'abc', cachedInput: '', output: '2' })).toContain('profile-error-price-input');
    const half = html({ input: '2', cachedInput: '', output: '' });
    expect(half).toContain('data-testid="profile-error-price-output"');
    expect(half).toContain('Input and output are both needed');
    expect(half).not.toContain('profile-error-price-cachedInput'); // the cached price may stay empty
    expect(html({ input: '2', cachedInput: '0.5', output: '8' })).not.toContain('field-error');
  });

  it("names the preset's list price with its source and date, or says there is none", () => {
    const preset = html({ input: '', cachedInput: '', output: '' }, 'gpt-5.4', 'openai', 'https://api.openai.com/v1');
    expect(preset).toContain('$2.50 / $0.25 / $15.00');
    expect(preset).toContain('checked 2026-12-02');
    expect(preset).toContain('https://www.morphllm.com/openai-api-pricing');
    expect(html({ input: '', cachedInput: '', output: '' }, 'local-model')).toContain(
      'no price is known for local-model, so usage shows tokens only',
    );
  });

  it('a save sends the prices typed, a bad one as such (main refuses it by name), and none when all are empty', () => {
    expect(applied({ input: 2, cachedInput: 0.5, output: 8 }).prices).toEqual({
      input: 2,
      cachedInput: 0.5,
      output: 8,
    });
    expect(applied({ input: 2, output: 8 }).prices).toEqual({ input: 2, output: 8 });
    expect(applied(undefined).prices).toBeUndefined();
  });
});
