// The profile form and list say when a generic profile is sent what a known server's kind is sent, from its base URL
// (issue 21 point 9): in both languages, and never for a picked kind or an unknown host.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { translator } from '../i18n/translate';
import { ActsAs } from './ProfileForm';

const html = (kind: 'generic' | 'openai', baseURL: string, locale: 'en' | 'ja' = 'en') =>
  renderToStaticMarkup(<ActsAs kind={kind} baseURL={baseURL} t={translator(locale)} />);

describe('ActsAs', () => {
  it('names the kind a generic profile acts as', () => {
    expect(html('generic', ' https://api.deepseek.com ')).toContain('acts as DeepSeek');
    expect(html('generic', 'https://api.moonshot.cn/v1', 'ja')).toContain('Moonshot (Kimi) として扱います');
  });

  it('says nothing for a picked kind, an unknown or look-alike host, or a URL being typed', () => {
    expect(html('openai', 'https://api.deepseek.com')).toBe('');
    expect(html('generic', 'https://api.deepseek.com.example.net/v1')).toBe('');
    expect(html('generic', 'http://127.0.0.1:8080/v1')).toBe('');
    expect(html('generic', 'https://api.deep')).toBe('');
  });
});
