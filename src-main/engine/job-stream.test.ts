// The stream's coalescing of transient deltas: the first delta after a quiet interval goes at once, deltas
// within an interval go together once it is over, and the end of a call sends what is left at once.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NewEvent } from '../../src-shared/events';
import { JobStream } from './job-stream';

const text = (t: string) => ({ type: 'text' as const, text: t });

describe('JobStream', () => {
  let sent: NewEvent[];
  let stream: JobStream;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    sent = [];
    stream = new JobStream((e) => sent.push(e), 'task_1', 'job_1', 16);
  });
  afterEach(() => vi.useRealTimers());
  const texts = () => sent.map((e) => (e.type === 'stream.delta' ? e.text : e.type));

  it('sends the first token at once, then at most one event per interval with everything gathered', () => {
    stream.push(text('Hel'));
    stream.push(text('lo'));
    vi.advanceTimersByTime(0);
    expect(texts()).toEqual(['Hello']);
    vi.advanceTimersByTime(5);
    stream.push(text(', '));
    vi.advanceTimersByTime(5);
    stream.push(text('world'));
    vi.advanceTimersByTime(5);
    expect(texts(), 'still inside the first interval').toEqual(['Hello']);
    vi.advanceTimersByTime(1);
    expect(texts()).toEqual(['Hello', ', world']);
  });

  it('after a quiet interval the next token goes at once again; the end of a call sends the rest at once', () => {
    stream.push(text('a'));
    vi.advanceTimersByTime(0);
    vi.advanceTimersByTime(100);
    stream.push(text('b'));
    vi.advanceTimersByTime(0);
    expect(texts()).toEqual(['a', 'b']);
    stream.push(text('c'));
    stream.flush();
    expect(texts()).toEqual(['a', 'b', 'c']);
    vi.advanceTimersByTime(100);
    expect(texts(), 'nothing left behind, nothing sent twice').toEqual(['a', 'b', 'c']);
  });
});
