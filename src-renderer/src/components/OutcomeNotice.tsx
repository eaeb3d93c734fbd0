// The notices of a form: what a save came to (a green or a red line, with `data-ok` for the tests), and an error;
// and a job's error in the person's words, said once, with its fix at hand.
import { type Comment, type Job, WHAT_NOW } from '../../../src-shared/entities';
import { useT } from '../hooks/useT';
import { selectDetail } from '../store/entity-selectors';
import { useAppStore } from '../store/store';
import { ErrorActions } from './ErrorActions';
import { errorCase, errorHeadline } from './error-words';
import { UntrustedText } from './UntrustedText';

export interface Outcome {
  ok: boolean;
  text: string;
}

export function OutcomeNotice({ outcome, testId }: { outcome: Outcome | null; testId: string }) {
  if (!outcome) return null;
  return (
    <p className={`notice ${outcome.ok ? 'notice-ok' : 'notice-error'}`} data-testid={testId} data-ok={outcome.ok}>
      {outcome.text}
    </p>
  );
}

/** A red line saying what went wrong; nothing when nothing did. */
export function ErrorNotice({ error, testId }: { error: string | null | undefined; testId: string }) {
  if (!error) return null;
  return (
    <p className="notice notice-error" data-testid={testId}>
      {error}
    </p>
  );
}

/**
 * A job's error in the person's words — what went wrong (error-words.ts: its code and the server's text), how many
 * times it was tried — with the server's own text folded under it as untrusted text, and the fix at hand: Retry and
 * Edit profile (ErrorActions.tsx); for a failure that is not the model's, what else to do to try again.
 * `detail`: the text to fold (default the job's error).
 */
export function JobError({ job, detail, testId }: { job: Job | undefined; detail?: string; testId: string }) {
  const t = useT();
  const profileName = useAppStore((s) => job?.profile ?? s.profiles.find((p) => p.isDefault)?.name ?? null);
  const exists = useAppStore((s) => s.profiles.some((p) => p.name === profileName));
  const text = detail ?? job?.error;
  if (!text) return null;
  const found = errorCase(job?.errorCode, text);
  return (
    <div
      className="notice notice-error job-error"
      data-testid={testId}
      data-code={job?.errorCode}
      data-case={found.kind === 'model' ? found.failure : found.kind}
    >
      <p className="job-error-headline" data-testid="job-error-headline">
        {errorHeadline(t, found, profileName)}
        {job && job.status === 'failed' && job.attempt > 1 ? ` ${t('job.error.attempts', { count: job.attempt })}` : ''}
      </p>
      <details className="job-error-detail">
        <summary>{found.kind === 'model' ? t('modelError.serverSaid') : t('job.error.details')}</summary>
        <pre className="step-pre" data-testid="job-error-detail">
          <UntrustedText text={text} collapseBlankLines={3} />
        </pre>
      </details>
      {job ? <ErrorActions job={job} found={found} profile={exists ? profileName : null} /> : null}
      {found.kind !== 'model' && job?.status === 'failed' ? (
        <p className="job-error-next">{t('job.error.whatNow')}</p>
      ) : null}
    </div>
  );
}

/**
 * The error comment of a failed job, said once, where it happened in the chat (the task's header does not repeat
 * it): JobError with the comment's text, the English hint main appends left out.
 */
export function ErrorComment({ comment }: { comment: Comment }) {
  const job = useAppStore((s) => selectDetail(s)?.jobs.find((j) => j.id === comment.jobId));
  const detail = comment.body.endsWith(WHAT_NOW) ? comment.body.slice(0, -WHAT_NOW.length).trimEnd() : comment.body;
  return <JobError job={job} detail={detail} testId="error-comment" />;
}
