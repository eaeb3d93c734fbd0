// Untrusted text on screen, as src-shared/untrusted-text.ts renders it: hidden characters as marked `⟨U+XXXX⟩`
// escapes (their name on hover), a run of blank lines as one muted line saying how many, and the flag a card shows
// when the text holds hidden characters.
import { memo, useMemo } from 'react';
import { assertNever } from '../../../src-shared/assert-never';
import {
  type RenderedText,
  renderUntrusted,
  type TextSegment,
  type UntrustedRenderOptions,
} from '../../../src-shared/untrusted-text';
import { useT } from '../hooks/useT';

/** The rendered segments, escapes and gaps marked. */
export const UntrustedSegments = memo(function UntrustedSegments({ shown }: { shown: RenderedText }) {
  return (
    <>
      {shown.segments.map((segment, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the segments of one text never move.
        <Segment key={i} segment={segment} />
      ))}
    </>
  );
});

function Segment({ segment }: { segment: TextSegment }) {
  const t = useT();
  switch (segment.kind) {
    case 'text':
      return segment.text;
    case 'escape': {
      const code = segment.text.slice(1, -1);
      const name = segment.name;
      return (
        <span
          className="untrusted-escape"
          data-code-point={segment.codePoint}
          title={name ? t('untrusted.escapeTitle', { code, name }) : t('untrusted.escapeTitleUnnamed', { code })}
        >
          {segment.text}
        </span>
      );
    }
    case 'gap':
      return (
        <span className="untrusted-gap" data-lines={segment.lines}>
          {t('untrusted.gap', { count: segment.lines })}
        </span>
      );
    default:
      return assertNever(segment, 'text segment');
  }
}

/** `text` rendered with `options` and shown. */
export function UntrustedText({ text, ...options }: { text: string } & UntrustedRenderOptions) {
  const { mode, multiline, collapseBlankLines } = options;
  const shown = useMemo(
    () => renderUntrusted(text, { mode, multiline, collapseBlankLines }),
    [text, mode, multiline, collapseBlankLines],
  );
  return <UntrustedSegments shown={shown} />;
}

/** One line of untrusted text (a task title, a name): line breaks shown as escapes too. */
export function UntrustedLine({ text }: { text: string }) {
  return <UntrustedText text={text} multiline={false} />;
}

/** The card's warning that what it shows holds hidden characters; nothing when it holds none. */
export function HiddenCharsFlag({ count }: { count: number }) {
  const t = useT();
  if (count === 0) return null;
  return (
    <p className="approval-warning untrusted-flag" role="note" data-testid="hidden-chars-flag" data-count={count}>
      {t('untrusted.hidden', { count })}
    </p>
  );
}
