// Which methods of the job, comment and request repositories change state. Only jobs/ (through its commands) and
// db/ call the writes; test-support/import-boundaries.ts reads this table to find a call anywhere else. Every method
// is classified: a method added to one of these repositories without a line here does not compile.
import type { Store } from '../store';
import type { CommentsRepo } from './comments';
import type { JobsRepo } from './jobs';
import type { PackageRequestsRepo } from './package-requests';
import type { ToolRequestsRepo } from './tool-requests';

type Surface<Repo> = { readonly [Method in keyof Repo]: 'read' | 'write' };

const jobs = {
  insert: 'write',
  get: 'read',
  listForTask: 'read',
  latestForTask: 'read',
  reflectionsForTask: 'read',
  children: 'read',
  openDescendants: 'read',
  openChildCount: 'read',
  transition: 'write',
  claimNext: 'write',
  heartbeat: 'write',
  clearPendingInvoke: 'write',
  setResumeMovement: 'write',
  setPiece: 'write',
  retryNow: 'write',
  waitingOn: 'read',
  staleRunning: 'read',
} as const satisfies Surface<JobsRepo>;

const comments = {
  insert: 'write',
  listForTask: 'read',
  listForJob: 'read',
  undeliveredInterjections: 'read',
  moveUndelivered: 'write',
  markDelivered: 'write',
} as const satisfies Surface<CommentsRepo>;

const requests = {
  insert: 'write',
  get: 'read',
  listForTask: 'read',
  listForJob: 'read',
  decide: 'write',
  markStarted: 'write',
  pendingCount: 'read',
} as const;

/** The state repositories by their name on the Store, each method read or write. */
export const STATE_REPOS = {
  jobs,
  comments,
  toolRequests: requests satisfies Surface<ToolRequestsRepo>,
  packageRequests: requests satisfies Surface<PackageRequestsRepo>,
} as const satisfies { [Repo in keyof Store]?: Surface<Store[Repo]> };
