// A profile's capacity: its limit of calls at once, in order; a 429's pause for every call of the profile; after it,
// calls start again one more at a time; a cancelled wait holds nothing; the servers' rate-limit headers.
import { describe, expect, it } from 'vitest';
import { CapacityAborted, type CapacityWait, durationMs, ProfileCapacity } from './capacity';

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('ProfileCapacity', () => {
  it('lets at most its limit run, the rest wait in the order they came', async () => {
    const capacity = new ProfileCapacity(2);
    const order: number[] = [];
    const releases: (() => void)[] = [];
    const waits: CapacityWait[] = [];
    const calls = [0, 1, 2, 3].map((i) =>
      capacity
        .acquire(undefined, (w) => waits.push(w))
        .then((release) => {
          order.push(i);
          releases.push(release);
        }),
    );
    await tick();
    expect(order).toEqual([0, 1]);
    expect(capacity.running).toBe(2);
    expect(waits).toEqual([{ reason: 'limit' }, { reason: 'limit' }]);
    releases[0]?.();
    releases[0]?.(); // a second release of the same place frees nothing more
    await tick();
    expect(order).toEqual([0, 1, 2]);
    releases[1]?.();
    await Promise.all(calls);
    expect(order).toEqual([0, 1, 2, 3]);
    expect(capacity.running).toBe(2);
  });

  it('a 429 pauses every call of the profile for its Retry-After, then lets them in one more at a time', async () => {
    const capacity = new ProfileCapacity();
    const held = await Promise.all([0, 1, 2, 3].map(() => capacity.acquire()));
    expect(capacity.throttled(150)).toBe(150);
    for (const release of held) release();
    const started: number[] = [];
    const waits: CapacityWait[] = [];
    const t0 = Date.now();
    const next = [0, 1, 2].map(() =>
      capacity
        .acquire(undefined, (w) => waits.push(w))
        .then((release) => {
          started.push(Date.now() - t0);
          return release;
        }),
    );
    await new Promise((r) => setTimeout(r, 60));
    expect(started).toEqual([]);
    expect(waits[0]?.reason).toBe('rate_limited');
    // Four ran when the 429 came: two may run after it, the third waits for a success.
    await new Promise((r) => setTimeout(r, 150));
    expect(started).toHaveLength(2);
    expect(Math.min(...started)).toBeGreaterThanOrEqual(140);
    capacity.succeeded();
    const releases = await Promise.all(next);
    expect(started).toHaveLength(3);
    for (const release of releases) release();
  });

  it('without Retry-After, repeated 429s back off longer each time, with jitter', () => {
    let now = 1_000_000;
    const capacity = new ProfileCapacity(
      undefined,
      () => now,
      () => 0.999,
    );
    const pauses = [1, 2, 3, 4].map(() => {
      const pause = capacity.throttled(undefined);
      now += pause; // each 429 after the pause before it
      return pause;
    });
    expect(pauses[0]).toBeGreaterThanOrEqual(900);
    expect(pauses[0]).toBeLessThanOrEqual(1000);
    expect(pauses[1]).toBeGreaterThan(pauses[0] as number);
    expect(pauses[3]).toBeGreaterThan(pauses[2] as number);
    capacity.succeeded();
    expect(capacity.throttled(undefined)).toBeLessThanOrEqual(1000);
  });

  it('the 429s of one burst make one pause, not a longer one each', () => {
    let now = 1_000_000;
    const capacity = new ProfileCapacity(
      undefined,
      () => now,
      () => 0.999,
    );
    const first = capacity.throttled(undefined);
    now += 100;
    expect(capacity.throttled(undefined)).toBe(first - 100);
    expect(capacity.throttled(undefined)).toBe(first - 100);
    now += first;
    // After the pause, the next 429 is a new one: the backoff grows by one step only.
    const second = capacity.throttled(undefined);
    expect(second).toBeGreaterThan(first);
    expect(second).toBeLessThanOrEqual(2000);
  });

  it('a cancelled wait holds no place and leaves the queue', async () => {
    const capacity = new ProfileCapacity(1);
    const first = await capacity.acquire();
    const controller = new AbortController();
    const waiting = capacity.acquire(controller.signal);
    const after = capacity.acquire();
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(CapacityAborted);
    first();
    const release = await after;
    expect(capacity.running).toBe(1);
    release();
    expect(capacity.running).toBe(0);
  });

  it('a cancelled wait for a pause ends at once', async () => {
    const capacity = new ProfileCapacity();
    capacity.throttled(60_000);
    const controller = new AbortController();
    const t0 = Date.now();
    const waiting = capacity.acquire(controller.signal);
    setTimeout(() => controller.abort(), 20);
    await expect(waiting).rejects.toBeInstanceOf(CapacityAborted);
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  it('x-ratelimit-remaining-requests at 0 pauses until the reset the server named', async () => {
    const capacity = new ProfileCapacity();
    capacity.observe(new Headers({ 'x-ratelimit-remaining-requests': '3', 'x-ratelimit-reset-requests': '10s' }));
    (await capacity.acquire())();
    capacity.observe(new Headers({ 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '120ms' }));
    const t0 = Date.now();
    const waits: CapacityWait[] = [];
    (await capacity.acquire(undefined, (w) => waits.push(w)))();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(100);
    expect(waits.map((w) => w.reason)).toEqual(['rate_limited']);
  });

  it('a pause waited out again (the timer woke before the clock said so) is told once', async () => {
    let lag = 0;
    const capacity = new ProfileCapacity(undefined, () => Date.now() - lag);
    capacity.throttled(60);
    const waits: CapacityWait[] = [];
    const waiting = capacity.acquire(undefined, (w) => waits.push(w));
    lag = 20; // after the first sleep the clock still says 20 ms of the pause are left
    (await waiting)();
    expect(waits.map((w) => w.reason)).toEqual(['rate_limited']);
  });

  it('a lower limit set by an edit of the profile applies to the next calls', async () => {
    const capacity = new ProfileCapacity(4);
    const a = await capacity.acquire();
    capacity.setLimit(1);
    let second = false;
    const b = capacity.acquire().then((release) => {
      second = true;
      return release;
    });
    await tick();
    expect(second).toBe(false);
    a();
    (await b)();
    expect(second).toBe(true);
  });
});

describe('durationMs', () => {
  it('reads seconds and the duration forms servers send, and nothing else', () => {
    expect(durationMs('20')).toBe(20_000);
    expect(durationMs('0.5')).toBe(500);
    expect(durationMs('1s')).toBe(1000);
    expect(durationMs('6m0s')).toBe(360_000);
    expect(durationMs('250ms')).toBe(250);
    expect(durationMs('1h2m3.5s')).toBe(3_723_500);
    expect(durationMs('soon')).toBeUndefined();
    expect(durationMs('5 minutes')).toBeUndefined();
    expect(durationMs(null)).toBeUndefined();
  });
});
