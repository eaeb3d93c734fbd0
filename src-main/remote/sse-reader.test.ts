// The SSE reader against the bridge's frames split anywhere: ids, named events, multi-line data, keepalive comments
// and CRLF line ends.
import { describe, expect, it } from 'vitest';
import { type SseMessage, SseReader } from './sse-reader';

describe('SseReader', () => {
  it('reads frames however the chunks fall', () => {
    const text =
      'retry: 1000\n\nid: 7\ndata: {"a":1}\n\n: keepalive\n\ndata: {"live":true}\n\r\nevent: error\r\ndata: line1\r\ndata: line2\r\n\r\n';
    for (const size of [1, 3, 7, text.length]) {
      const got: SseMessage[] = [];
      const reader = new SseReader((m) => got.push(m));
      for (let i = 0; i < text.length; i += size) reader.push(text.slice(i, i + size));
      expect(got, `chunks of ${size}`).toEqual([
        { id: '7', event: 'message', data: '{"a":1}' },
        { id: undefined, event: 'message', data: '{"live":true}' },
        { id: undefined, event: 'error', data: 'line1\nline2' },
      ]);
    }
  });
});
