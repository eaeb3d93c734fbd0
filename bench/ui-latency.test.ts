// The latency figures of bench/ui: markers matched between the chunks as sent and the page's records.
import { describe, expect, it } from 'vitest';
import { latencies, latencyChunk, markersIn, percentile } from './ui-latency';

describe('ui latency figures', () => {
  it('chunks are all as long, each with its own marker', () => {
    const chunks = Array.from({ length: 200 }, (_, i) => latencyChunk(i));
    expect(new Set(chunks.map((c) => c.length)).size).toBe(1);
    expect(chunks.flatMap(markersIn)).toEqual(
      Array.from({ length: 200 }, (_, i) => `MRK${String(i).padStart(4, '0')}`),
    );
  });

  it('times each marker from its chunk to the page, split at its receipt, and counts the events that brought them', () => {
    const sent = [0, 1, 2].map((i) => ({ request: 3, delta: { content: latencyChunk(i) }, sentAt: 1000 + i * 20 }));
    // Chunks 0 and 1 came in one event at 1055; chunk 2 in another at 1070; chunk 2 was never shown.
    const figures = latencies([{ request: 3, delta: { role: 'assistant' }, sentAt: 990 }, ...sent], {
      received: { MRK0000: 1055, MRK0001: 1055, MRK0002: 1070 },
      shown: { MRK0000: 1060, MRK0001: 1060 },
    });
    expect(figures).toEqual({
      sent: 3,
      seen: 2,
      shownMs: [60, 40],
      receivedMs: [55, 35, 30],
      renderMs: [5, 5],
      events: 2,
      oldestInEventMs: [55, 30],
    });
  });

  it('percentiles by nearest rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 95)).toBe(95);
    expect(percentile(values, 100)).toBe(100);
    expect(percentile([], 95)).toBeNaN();
  });
});
