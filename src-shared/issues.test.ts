// The one wording of zod issues: the line every error quotes and the contract's `issues`, on real zod errors.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeIssues, dottedPath, errorIssues } from './issues';

const Schema = z.object({ name: z.string(), tags: z.array(z.string()), n: z.number().optional() }).strict();
const issuesOf = (value: unknown) => {
  const parsed = Schema.safeParse(value);
  if (parsed.success) throw new Error('expected the value to be refused');
  return parsed.error.issues;
};

describe('zod issues in the app’s words', () => {
  it('each field dotted with its message, joined by "; "; the whole value named as asked', () => {
    const issues = issuesOf({ name: 1, tags: ['a', 2] });
    expect(describeIssues(issues, { whole: 'input' })).toBe(
      'name: Invalid input: expected string, received number; tags.1: Invalid input: expected string, received number',
    );
    expect(describeIssues(issuesOf('x'), { whole: 'input' })).toBe(
      'input: Invalid input: expected object, received string',
    );
    expect(describeIssues(issuesOf('x'), { whole: '(top level)' })).toMatch(/^\(top level\): /);
  });

  it('under a prefix, limited, and named the file’s own way', () => {
    const issues = issuesOf({ name: 1, tags: [2, 3, 4], extra: true });
    expect(describeIssues(issues, { whole: 'policy', under: ['policy'], limit: 2 })).toBe(
      'policy.name: Invalid input: expected string, received number; policy.tags.0: Invalid input: expected string, received number',
    );
    const bracketed = (p: readonly PropertyKey[]) =>
      p.map((k) => (typeof k === 'number' ? `[${k}]` : String(k))).join('');
    expect(describeIssues(issues, { whole: '(root)', limit: 2, name: bracketed })).toContain('tags[0]: ');
    expect(describeIssues(issues, { whole: 'x' }).split('; ')).toHaveLength(5);
  });

  it('the contract’s issues keep numbers as numbers and put the prefix first; a symbol key becomes text', () => {
    expect(errorIssues(issuesOf({ name: 'a', tags: [1] }), ['policy'])).toEqual([
      { path: ['policy', 'tags', 0], message: 'Invalid input: expected string, received number' },
    ]);
    const key = Symbol('k');
    expect(errorIssues([{ path: [key], message: 'm' }])).toEqual([{ path: ['Symbol(k)'], message: 'm' }]);
    expect(dottedPath([key, 0, 'a'])).toBe('Symbol(k).0.a');
  });
});
