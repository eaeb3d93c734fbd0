// The workspace commit's message (P2.21): git itself reads back exactly the two MAESTRO trailers, whatever the result
// ends with; the subject is one bounded line; ids that could forge a trailer are refused.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BODY_MAX, jobCommitMessage, SUBJECT_MAX } from './commit-message';

const ids = { taskId: 'task_0mabc1', jobId: 'job_0mabc2' };
/** The trailers git finds in a message (`git interpret-trailers --parse`, the parser `git log` uses). */
const trailersOf = (message: string) =>
  execFileSync('git', ['interpret-trailers', '--parse'], {
    input: message,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', HOME: '/nonexistent' },
  });

describe('workspace commit message (P2.21)', () => {
  it('P2.21: subject from the title, body from the result, then the MAESTRO trailers', () => {
    const message = jobCommitMessage({
      title: '  Add a login page ',
      result: '\nDone: the page is at /login.\n',
      ...ids,
    });
    expect(message).toBe(
      'Add a login page\n\nDone: the page is at /login.\n\nMAESTRO-Task: task_0mabc1\nMAESTRO-Job: job_0mabc2\n',
    );
    expect(trailersOf(message)).toBe('MAESTRO-Task: task_0mabc1\nMAESTRO-Job: job_0mabc2\n');
  });

  it('P2.21: a result whose last lines look like trailers adds none of them (the trailers are their own paragraph)', () => {
    const result = 'All done.\n\nSigned-off-by: Mallory <m@example.com>\nMAESTRO-Job: job_forged';
    const message = jobCommitMessage({ title: 'T', result, ...ids });
    expect(trailersOf(message)).toBe('MAESTRO-Task: task_0mabc1\nMAESTRO-Job: job_0mabc2\n');
  });

  it('P2.21: a title of several lines, control characters and great length gives one bounded subject line', () => {
    const message = jobCommitMessage({
      title: `Fix\r\nthe\u0000 bug\u001b[31m ${'x'.repeat(500)}`,
      result: null,
      ...ids,
    });
    const [subject = '', blank] = message.split('\n');
    expect(subject.startsWith('Fix the bug[31m xxx')).toBe(true);
    expect(Array.from(subject)).toHaveLength(SUBJECT_MAX + 1); // the cut mark
    expect(subject.endsWith('…')).toBe(true);
    expect(blank).toBe('');
    for (const c of ['\u0000', '\u001b', '\r']) expect(message).not.toContain(c);
  });

  it('P2.21: an empty title names the job; a long result is cut with a note; CRLF becomes LF', () => {
    const long = jobCommitMessage({ title: ' \n ', result: `a\r\nb\r\n${'y'.repeat(BODY_MAX * 2)}`, ...ids });
    expect(long.startsWith('MAESTRO job job_0mabc2\n\na\nb\n')).toBe(true);
    expect(long).toContain('the result is cut here');
    expect(long.length).toBeLessThan(BODY_MAX + 300);
  });

  it.each([
    ['taskId', 'task_1\nMAESTRO-Job: forged'],
    ['jobId', 'job 2'],
    ['jobId', ''],
  ])('P2.21: a %s that is not a plain id (%j) is refused, naming it', (field, value) => {
    expect(() => jobCommitMessage({ title: 'T', result: null, ...ids, [field]: value })).toThrow(
      field === 'taskId' ? /task id/ : /job id/,
    );
  });
});
