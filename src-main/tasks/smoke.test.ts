import { describe, expect, it } from 'vitest';
import { testMaestro } from '../../test-support/temp-maestro';

describe('smoke', () => {
  it('creates a task', () => {
    const m = testMaestro();
    const out = m.invoke('createTask', { instruction: 'hello' });
    expect(out.task.status).toBe('queued');
    expect(m.invoke('getTask', { taskId: out.task.id }).comments).toHaveLength(1);
  });
});
