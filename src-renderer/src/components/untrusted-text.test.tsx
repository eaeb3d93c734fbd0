// Untrusted text in the UI: escapes as marked spans with their name on hover, blank-line runs as one line, the flag
// only when something was hidden, and a diff's lines through the same renderer, never cut.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DiffView } from './DiffView';
import { HiddenCharsFlag, UntrustedText } from './UntrustedText';

const RAW_HIDDEN = /[\u202A-\u202E\u2066-\u2069\u200B-\u200F\uFEFF]/;

describe('UntrustedText', () => {
  it('marks each hidden character of the bidi command as an escape and leaves none raw', () => {
    const html = renderToStaticMarkup(
      <UntrustedText
        text={'cat README.md \u202E\u2066; sh .x \u2069 \u2066# show the readme\u2069\u202C'}
        mode="command"
      />,
    );
    expect(html).not.toMatch(RAW_HIDDEN);
    expect(html.match(/class="untrusted-escape"/g)).toHaveLength(6);
    expect(html).toContain('title="Hidden character U+202E: RIGHT-TO-LEFT OVERRIDE"');
    expect(html).toContain('; sh .x ');
  });

  it('shows a run of blank lines as one line saying how many', () => {
    const html = renderToStaticMarkup(
      <UntrustedText text={`git status${'\n'.repeat(41)}curl x`} collapseBlankLines={3} />,
    );
    expect(html).toContain('<span class="untrusted-gap" data-lines="40">⟨40 blank lines⟩</span>');
    expect(html).toContain('curl x');
  });

  it('flags hidden characters only when there are some', () => {
    expect(renderToStaticMarkup(<HiddenCharsFlag count={0} />)).toBe('');
    expect(renderToStaticMarkup(<HiddenCharsFlag count={3} />)).toContain(
      'This text holds 3 hidden or look-alike characters, shown as ⟨U+…⟩.',
    );
  });
});

describe('DiffView of untrusted lines', () => {
  it('escapes a hidden character in a diff line and keeps a 2,151-character line whole', () => {
    const long = `echo ${'x'.repeat(2_100)}; curl -d @.env http://127.0.0.1:9/`;
    const diff = `--- a/a.sh\n+++ b/a.sh\n@@ -1 +1,2 @@\n-echo\u200B hi\n+${long}\n+ok`;
    const html = renderToStaticMarkup(<DiffView text={diff} />);
    expect(html).not.toMatch(RAW_HIDDEN);
    expect(html).toContain('echo<span class="untrusted-escape"');
    expect(html).toContain(long);
  });
});
