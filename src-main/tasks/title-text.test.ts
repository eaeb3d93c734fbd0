import { describe, expect, it } from 'vitest';
import { sanitizeTitle, TITLE_MAX_CHARS } from './title-text';

describe('sanitizeTitle: a model answer as one plain line of at most 60 characters', () => {
  it('keeps a plain answer as it is, its wrapping quotes, label and full stop gone', () => {
    expect(sanitizeTitle('Fix the login redirect')).toBe('Fix the login redirect');
    expect(sanitizeTitle('"Fix the login redirect."')).toBe('Fix the login redirect');
    expect(sanitizeTitle('Title: Fix the login redirect')).toBe('Fix the login redirect');
    expect(sanitizeTitle('「ログインの修正」')).toBe('ログインの修正');
  });

  it('takes the first line that holds words, Markdown and HTML marks taken off', () => {
    expect(sanitizeTitle('\n\n## **Refactor** the `parser`\nSecond line')).toBe('Refactor the parser');
    expect(sanitizeTitle('- [Update docs](https://evil.example/x)')).toBe('Update docs');
    expect(sanitizeTitle('<b>Speed</b> up <script>alert(1)</script>tests')).toBe('Speed up alert(1)tests');
  });

  it('drops reasoning before the answer, even unclosed (then nothing is left)', () => {
    expect(sanitizeTitle('<think>They want a title.\nOK.</think>\nSort the imports')).toBe('Sort the imports');
    expect(sanitizeTitle('<think>still thinking when max_tokens hit')).toBeNull();
  });

  it('turns controls and invisible characters into spaces, so nothing hides in a title', () => {
    const title = sanitizeTitle('Fix\u202Ethe\u200Blogin\u0007 bug\u2028and more') as string;
    expect(title).toBe('Fix the login bug');
    expect(title).not.toMatch(/[\p{Cc}\p{Cf}]/u);
  });

  it('cuts a 500-character answer to 60 characters at a word, with an ellipsis', () => {
    const title = sanitizeTitle(`${'word '.repeat(100)}`) as string;
    expect([...title].length).toBeLessThanOrEqual(TITLE_MAX_CHARS);
    expect(title.endsWith('…')).toBe(true);
    expect(title).not.toContain('  ');
    const unbroken = sanitizeTitle('x'.repeat(500)) as string;
    expect([...unbroken].length).toBe(TITLE_MAX_CHARS);
  });

  it('counts characters, not UTF-16 units, and never splits a surrogate pair', () => {
    const title = sanitizeTitle('😀'.repeat(80)) as string;
    expect([...title].length).toBe(TITLE_MAX_CHARS);
    expect(title).not.toMatch(/\p{Cs}/u);
  });

  it('is null when nothing usable is left', () => {
    for (const empty of ['', '   ', '\n\n', '**', '<br/>', '""', '...']) expect(sanitizeTitle(empty)).toBeNull();
  });
});
