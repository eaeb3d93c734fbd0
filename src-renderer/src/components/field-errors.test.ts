import { describe, expect, it } from 'vitest';
import { fieldErrors } from './field-errors';

describe('fieldErrors', () => {
  it('keys each field by its dotted path, the first message winning, the prefix taken off', () => {
    expect(
      fieldErrors(
        [
          { path: ['server', 'env', 1, 'name'], message: 'bad name' },
          { path: ['server', 'env', 1, 'name'], message: 'second' },
          { path: ['server.args.0'], message: 'unknown variable' },
        ],
        'server.',
      ),
    ).toEqual({ 'env.1.name': 'bad name', 'args.0': 'unknown variable' });
  });
});
