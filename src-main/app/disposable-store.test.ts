// The host's teardown store: reverse order, one failing disposer does not stop the others (and is reported), a second
// dispose does nothing, and something added after the dispose is released at once.
import { describe, expect, it } from 'vitest';
import { DisposableStore } from './disposable-store';

const failures = () => {
  const seen: [string, string][] = [];
  const store = new DisposableStore((name, error) => seen.push([name, (error as Error).message]));
  return { store, seen };
};

describe('DisposableStore', () => {
  it('disposes in the reverse order of adding, each async one finished before the next starts', async () => {
    const { store, seen } = failures();
    const order: string[] = [];
    store.add('lock', () => void order.push('lock'));
    store.add('db', () => void order.push('db'));
    store.add('worker', async () => {
      await new Promise((r) => setTimeout(r, 20));
      order.push('worker');
    });
    store.add('listener', () => void order.push('listener'));
    await store.dispose();
    expect(order).toEqual(['listener', 'worker', 'db', 'lock']);
    expect(seen).toEqual([]);
  });

  it('synchronous disposers have all run when dispose returns (a failed start releases the DB and the lock at once)', () => {
    const order: string[] = [];
    const store = new DisposableStore();
    store.add('lock', () => void order.push('lock'));
    store.add('db', () => void order.push('db'));
    void store.dispose();
    expect(order).toEqual(['db', 'lock']);
  });

  it('a disposer that throws or rejects is reported by name; the others still run; dispose resolves', async () => {
    const { store, seen } = failures();
    const order: string[] = [];
    store.add('lock', () => void order.push('lock'));
    store.add('db', () => {
      throw new Error('db is busy');
    });
    store.add('worker', () => Promise.reject(new Error('worker hung')));
    store.add('listener', () => void order.push('listener'));
    await expect(store.dispose()).resolves.toBeUndefined();
    expect(order).toEqual(['listener', 'lock']);
    expect(seen).toEqual([
      ['worker', 'worker hung'],
      ['db', 'db is busy'],
    ]);
  });

  it('disposing twice runs nothing twice, and the second call waits for the first', async () => {
    const { store } = failures();
    let runs = 0;
    let finish: () => void = () => {};
    store.add('worker', () => {
      runs += 1;
      return new Promise<void>((r) => {
        finish = r;
      });
    });
    const first = store.dispose();
    let secondDone = false;
    const second = store.dispose().then(() => {
      secondDone = true;
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(secondDone).toBe(false);
    finish();
    await Promise.all([first, second]);
    await store.dispose();
    expect(runs).toBe(1);
    expect(store.disposed).toBe(true);
  });

  it('something added after the dispose is released at once, not kept open', async () => {
    const { store, seen } = failures();
    await store.dispose();
    const released: string[] = [];
    store.add('late listener', () => void released.push('late listener'));
    store.add('late failure', () => {
      throw new Error('gone');
    });
    expect(released).toEqual(['late listener']);
    expect(seen).toEqual([['late failure', 'gone']]);
  });
});
