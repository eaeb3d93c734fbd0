// A unified diff shown as a person reviews one: coloured added and removed lines, the line numbers on both sides, the
// file and the counts in its header; a long diff shows its first lines and opens whole on request. Long lines wrap,
// never cut; the text goes through the untrusted-text renderer, so hidden characters show as ⟨U+…⟩.
import { useMemo, useState } from 'react';
import { useT } from '../hooks/useT';
import { type DiffLine, parseDiff } from './diff-lines';
import { UntrustedLine, UntrustedText } from './UntrustedText';

/** Lines shown before "Show all". */
const FOLDED_LINES = 40;

/** The diff in `text`; the text as it is when it holds none. */
export function DiffView({ text, testId = 'diff-view' }: { text: string; testId?: string }) {
  const t = useT();
  const diff = useMemo(() => parseDiff(text), [text]);
  const [open, setOpen] = useState(false);
  if (!diff) {
    return (
      <pre className="step-pre">
        <UntrustedText text={text} />
      </pre>
    );
  }
  const body = diff.lines.filter((l) => l.kind !== 'file');
  const shown = open ? body : body.slice(0, FOLDED_LINES);
  return (
    <figure className="diff" data-testid={testId} data-added={diff.added} data-removed={diff.removed}>
      <figcaption className="diff-header">
        <span className="diff-file">
          <UntrustedLine text={t('diff.label', { file: diff.file ?? '?' })} />
        </span>
        <span className="diff-count diff-count-added">{t('diff.added', { count: diff.added })}</span>
        <span className="diff-count diff-count-removed">{t('diff.removed', { count: diff.removed })}</span>
      </figcaption>
      <table className="diff-lines">
        <tbody>
          {shown.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a diff's lines never move; the index is their identity.
            <DiffRow key={i} line={line} />
          ))}
        </tbody>
      </table>
      {body.length > FOLDED_LINES ? (
        <button type="button" className="button diff-toggle" onClick={() => setOpen(!open)} data-testid="diff-toggle">
          {open ? t('diff.showLess') : t('diff.showAll', { count: body.length })}
        </button>
      ) : null}
    </figure>
  );
}

const SIGN: Record<string, string> = { added: '+', removed: '-', context: ' ' };

function DiffRow({ line }: { line: DiffLine }) {
  if (line.kind === 'hunk' || line.kind === 'note' || line.kind === 'file') {
    return (
      <tr className={`diff-line diff-${line.kind}`}>
        <td className="diff-no" />
        <td className="diff-no" />
        <td className="diff-text">
          <UntrustedText text={line.text} />
        </td>
      </tr>
    );
  }
  return (
    <tr className={`diff-line diff-${line.kind}`} data-kind={line.kind}>
      <td className="diff-no">{line.oldNo ?? ''}</td>
      <td className="diff-no">{line.newNo ?? ''}</td>
      <td className="diff-text">
        <span className="diff-sign" aria-hidden="true">
          {SIGN[line.kind]}
        </span>
        <UntrustedText text={line.text} />
      </td>
    </tr>
  );
}
