// A message's Markdown: raw HTML shows as text, GFM renders (tables, task lists, strikethrough, autolinks), code
// blocks are highlighted with a Copy button, only http(s)/mailto links survive and open outside, and streamed text
// splits into blocks that never change once text follows them.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown, safeUrl, splitBlocks } from './Markdown';

const html = (text: string) => renderToStaticMarkup(<Markdown text={text} />);

describe('Markdown', () => {
  it('escapes raw HTML, inline and as a block, instead of rendering it', () => {
    const out = html(
      'Look: <img src=x onerror=alert(1)> here\n\n<script>alert(1)</script>\n\n<div onclick="x()">hi</div>',
    );
    expect(out).not.toMatch(/<img|<script|<div onclick/);
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(out).toContain('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
    expect(out).toContain('&lt;div onclick=&quot;x()&quot;&gt;hi&lt;/div&gt;');
  });

  it('renders a GFM table, task list, strikethrough and autolink', () => {
    const out = html(
      '| Name | Size |\n| --- | ---: |\n| a.txt | 12 |\n\n- [x] done\n- [ ] todo\n\n~~old~~ www.example.com',
    );
    expect(out).toContain('<div class="md-table"><table>');
    expect(out).toMatch(/<th>Name<\/th>/);
    expect(out).toMatch(/<td>a\.txt<\/td>/);
    expect(out).toMatch(/<input type="checkbox" disabled="" checked=""\/> done/);
    expect(out).toContain('<del>old</del>');
    expect(out).toContain(
      '<a href="http://www.example.com" target="_blank" rel="noreferrer noopener">www.example.com</a>',
    );
  });

  it('renders a fenced code block highlighted, with a Copy button, and inline code plain', () => {
    const out = html('Run `npm test`:\n\n```ts\nconst n: number = 1;\n```');
    expect(out).toContain('<code>npm test</code>');
    expect(out).toContain('<pre><code class="hljs language-ts">');
    expect(out).toContain('<span class="hljs-keyword">const</span>');
    expect(out).toMatch(/<button type="button" class="md-copy"[^>]*>Copy<\/button>/);
  });

  it('shows code in an unknown language plain and escaped', () => {
    const out = html('```weird\n<b>x</b>\n```');
    expect(out).toContain('<pre><code class="hljs language-weird">&lt;b&gt;x&lt;/b&gt;</code></pre>');
  });

  it('keeps only http(s) and mailto links, opening outside; images become links', () => {
    const out = html(
      '[bad](javascript:alert(1)) [rel](/etc/passwd) [ok](https://example.com) ![pic](https://x.test/p.png)',
    );
    expect(out).not.toContain('javascript:');
    expect(out).toContain('<span class="md-link-text">bad</span>');
    expect(out).toContain('<span class="md-link-text">rel</span>');
    expect(out).toContain('<a href="https://example.com" target="_blank" rel="noreferrer noopener">ok</a>');
    expect(out).not.toContain('<img');
    expect(out).toContain('class="md-image-link">pic</a>');
    expect(safeUrl('mailto:a@b.c')).toBe('mailto:a@b.c');
    expect(safeUrl('file:///etc/passwd')).toBe('');
  });

  it('renders an unclosed code fence while streaming as a code block to the end', () => {
    const out = html('Here:\n\n```python\ndef f():\n\n    return 1');
    expect(out).toContain('<pre><code class="hljs language-python">');
    expect(out).toContain('return');
    expect(out).toMatch(/>Copy</);
  });
});

describe('splitBlocks', () => {
  it('splits at blank lines outside fences before an unindented line', () => {
    expect(splitBlocks('a\n\nb\n\n```\nx\n\ny\n```\n\n- l\n\n  cont')).toEqual([
      'a',
      'b',
      '```\nx\n\ny\n```',
      '- l\n\n  cont',
    ]);
  });

  it('does not split text with a link reference definition, nor before a line yet to come', () => {
    expect(splitBlocks('see [x]\n\n[x]: https://e.com')).toHaveLength(1);
    expect(splitBlocks('a\n\n')).toEqual(['a\n\n']);
  });

  it('never changes a block once more text follows it', () => {
    const full = 'Intro\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n~~~js\nlet a;\n\nlet b;\n~~~\n\nEnd.';
    let previous: string[] = [];
    for (let n = 1; n <= full.length; n++) {
      const blocks = splitBlocks(full.slice(0, n));
      expect(blocks.slice(0, previous.length - 1)).toEqual(previous.slice(0, -1));
      previous = blocks;
    }
    expect(previous.join('\n\n')).toBe(full);
  });
});
