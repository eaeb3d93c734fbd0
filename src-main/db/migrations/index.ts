// The ordered schema migrations, applied on PRAGMA user_version, each in its own transaction.
import type { Database } from 'better-sqlite3';
import { CodedError } from '../../../src-shared/errors';
import * as tasksJobsRequestsEvents from './0001-tasks-jobs-requests-events';
import * as logEntries from './0002-log-entries';
import * as spaces from './0003-spaces';
import * as pieceChoice from './0004-piece-choice';
import * as scheduleRuns from './0005-schedule-runs';
import * as approvedCallStarted from './0006-approved-call-started';
import * as denyReason from './0007-deny-reason';
import * as chatSteps from './0008-chat-steps';
import * as jobErrorCode from './0009-job-error-code';
import * as taskArchive from './0010-task-archive';
import * as commentChoicesAttachments from './0011-comment-choices-attachments';
import * as toolRequestDisplay from './0012-tool-request-display';
import * as commentNotice from './0013-comment-notice';
import * as a2aTasks from './0014-a2a-tasks';
import * as taskGrants from './0015-task-grants';
import * as settingsWait from './0016-settings-wait';
import * as checkpoints from './0017-checkpoints';
import * as jobGuards from './0018-job-guards';
import * as callers from './0019-callers';
import * as reflectionLessons from './0020-reflection-lessons';
import * as taskPages from './0021-task-pages';
import * as hosts from './0022-hosts';
import * as transcripts from './0023-transcripts';
import * as lessonReplaces from './0024-lesson-replaces';
import * as jobGuardCalls from './0025-job-guard-calls';

/** One frozen migration: its file `NNNN-<name>.ts` holds its version, name and literal SQL. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** Migration N at index N - 1. */
export const MIGRATIONS: readonly Migration[] = [
  tasksJobsRequestsEvents,
  logEntries,
  spaces,
  pieceChoice,
  scheduleRuns,
  approvedCallStarted,
  denyReason,
  chatSteps,
  jobErrorCode,
  taskArchive,
  commentChoicesAttachments,
  toolRequestDisplay,
  commentNotice,
  a2aTasks,
  taskGrants,
  settingsWait,
  checkpoints,
  jobGuards,
  callers,
  reflectionLessons,
  taskPages,
  hosts,
  transcripts,
  lessonReplaces,
  jobGuardCalls,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export class SchemaTooNewError extends CodedError {
  readonly code = 'schema_too_new';
  constructor(file: string, found: number) {
    super(`${file} has schema version ${found}, newer than this build knows (${SCHEMA_VERSION}); upgrade MAESTRO`);
  }
}

/** Applies every migration above the DB's user_version up to `target`, each atomically; returns the versions applied. */
export function migrate(db: Database, target = SCHEMA_VERSION): number[] {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) throw new SchemaTooNewError(db.name, current);
  const applied: number[] = [];
  for (const migration of MIGRATIONS.slice(current, target)) {
    db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
    applied.push(migration.version);
  }
  return applied;
}
