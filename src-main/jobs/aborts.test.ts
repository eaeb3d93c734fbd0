// A job's abort signal is followed by many at once (each MCP server's requests, the model call, commands, waits):
// that is no leak, and Node's warning for more than 10 listeners must not reach the host's log.
import { afterEach, describe, expect, it } from 'vitest';
import { JobAborts } from './aborts';

const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);
afterEach(() => {
  process.off('warning', onWarning);
  warnings.length = 0;
});

describe('JobAborts', () => {
  it('a job signal followed by 20 listeners at once gives no MaxListenersExceeded warning, and a cancel reaches every one', async () => {
    process.on('warning', onWarning);
    const aborts = new JobAborts();
    const signal = aborts.register('job_1');
    let heard = 0;
    for (let i = 0; i < 20; i++) signal.addEventListener('abort', () => heard++);
    // Node emits the warning on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
    expect(aborts.abort('job_1', 'the person cancelled')).toBe(true);
    expect(heard).toBe(20);
    // A plain AbortController with as many listeners does warn: the check above can fail.
    const plain = new AbortController();
    for (let i = 0; i < 20; i++) plain.signal.addEventListener('abort', () => {});
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.map((w) => w.name)).toContain('MaxListenersExceededWarning');
  });
});
