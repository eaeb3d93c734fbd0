// The error base: every error class has its own name and a stable code; transports answer only a MaestroError's own.
import { describe, expect, it } from 'vitest';
import { CodedError, ERROR_STATUS, type ErrorCode, errorBody, MaestroError } from './errors';

class ExampleError extends CodedError {
  readonly code = 'example_broken';
}

describe('CodedError', () => {
  it('names an error after its own class and keeps its code and cause', () => {
    const cause = new Error('underneath');
    const error = new ExampleError('it broke', { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ExampleError');
    expect(error.code).toBe('example_broken');
    expect(error.cause).toBe(cause);
    expect(new MaestroError('not_found', 'no task').name).toBe('MaestroError');
  });

  it('a caller error keeps its code, message and issues; any other error is internal, without its message', () => {
    for (const code of Object.keys(ERROR_STATUS) as ErrorCode[]) {
      expect(errorBody(new MaestroError(code, `about ${code}`))).toEqual({ code, message: `about ${code}` });
    }
    const issues = [{ path: ['instruction'], message: 'must not be empty' }];
    expect(errorBody(new MaestroError('invalid_input', 'bad', issues))).toEqual({
      code: 'invalid_input',
      message: 'bad',
      issues,
    });
    for (const other of [new ExampleError('secret detail'), new Error('secret detail'), 'a string', undefined]) {
      expect(errorBody(other)).toEqual({ code: 'internal', message: 'internal error' });
    }
  });
});
