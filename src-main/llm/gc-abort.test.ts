import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { kit, USER } from '../../test-support/llm-kit';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const collectFor = async (ms: number) => {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};
const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), ms))]);

describe('an LlmCall ends on time even when garbage collection runs while it waits (nodejs/node#55428)', () => {
  it('P4.21 a silent stream is cut by the idle timeout', async () => {
    const k = await kit(
      { script: [{ fault: 'hang', text: 'first words' }, { text: 'awake' }] },
      { idleTimeoutMs: 300 },
    );
    const pending = k.client.generate({ messages: USER });
    await collectFor(150);
    const result = await within(pending, 3_000);
    expect(result).not.toBe('still waiting');
    expect(result === 'still waiting' ? '' : result.text).toBe('awake');
  });

  it('P4.21 a server silent before its headers is cut by the idle timeout', async () => {
    const k = await kit({ script: [{ text: 'late', delayMs: 5_000 }, { text: 'awake' }] }, { idleTimeoutMs: 300 });
    const pending = k.client.generate({ messages: USER });
    await collectFor(150);
    const result = await within(pending, 3_000);
    expect(result === 'still waiting' ? result : result.text).toBe('awake');
  });

  it('P4.08 a cancel ends a wait for headers at once', async () => {
    const k = await kit({ script: [{ text: 'late', delayMs: 5_000 }] });
    const controller = new AbortController();
    const pending = k.client.generate({ messages: USER, signal: controller.signal }).catch((e: unknown) => e);
    await collectFor(150);
    controller.abort();
    expect(await within(pending, 2_000)).not.toBe('still waiting');
  });

  it('P4.08 a cancel ends a silent stream at once', async () => {
    const k = await kit({ script: [{ fault: 'hang', text: 'first words' }] });
    const controller = new AbortController();
    const pending = k.client.generate({ messages: USER, signal: controller.signal }).catch((e: unknown) => e);
    await collectFor(150);
    controller.abort();
    expect(await within(pending, 2_000)).not.toBe('still waiting');
  });
});
