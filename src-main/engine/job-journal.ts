// The engine's one port to the store, as llm-port.ts is its port to the model: what a job's run records (its log,
// its movement, delivered comments, started calls, subtasks, loop guards) and what it reads back. jobs/journal.ts
// implements it over the DB; the engine imports nothing from db/.
import type {
  Comment,
  Job,
  LlmCallRecord,
  LogKind,
  PackageRequest,
  Task,
  ToolRequest,
} from '../../src-shared/entities';
import type { InvokeKind, NewEvent } from '../../src-shared/events';
import type { TaskGrant } from '../../src-shared/grants';
import type { CallChanges, LoopState } from './guards/loop-state';
import type { TaskTranscript } from './transcripts';

/** The job as the engine reads it: the contract's Job and the Invoke its next run opens (null: it continues one). */
export interface EngineJob extends Job {
  pendingInvoke: InvokeKind | null;
}

/** A tool request the engine answers: its record and the arguments the call was made with. */
export type DecidedToolRequest = ToolRequest & { args: unknown };

export type { LogKind };

/** One entry of the job's Invoke/Turn/LlmCall log (run-log.ts writes them). */
export interface JournalEntry {
  kind: LogKind;
  invokeSeq: number | null;
  agentTurnSeq: number | null;
  invokeKind?: InvokeKind | null;
  body?: unknown;
  llmCall?: LlmCallRecord;
}

/** A subtask as the agent asks for it; the journal checks the tree's limits and creates it in one transaction. */
export interface SubtaskDraft {
  instruction: string;
  pieceId: string;
  title: string | undefined;
}

/** Where a subtask would sit: how deep below its top task, and how many subtasks that tree has already. */
export interface SubtaskPlace {
  depth: number;
  count: number;
}

export interface JobJournal {
  readonly task: Task;
  readonly job: EngineJob;

  /** Runs `record` as one transaction: a step's writes commit together or not at all. */
  step<T>(record: () => T): T;
  /** A persisted event (with the writes around it). */
  publish(event: NewEvent): void;
  /** A live-only event (progress, the chat's stream), sent when the surrounding step commits. */
  transient(event: NewEvent): void;

  // The log.
  append(entry: JournalEntry, now?: number): number;
  lastInvokeSeq(): number | null;
  /** The seq of this job's latest AgentTurn that made the call, or null. */
  turnOfCall(callId: string): number | null;
  /** The task's Invoke markers, oldest first. */
  invokes(): { seq: number; jobId: string; kind: InvokeKind }[];
  /** The task's conversation rewinds (checkpoints) that are in force. */
  rewinds(): { fromSeq: number; untilSeq: number }[];
  /**
   * The task's transcript where the store keeps it (`runtimeDir`: the task's runs/{taskId}/). Absent (a journal of a
   * test): the files there.
   */
  transcript?(runtimeDir: string): TaskTranscript;

  // The job.
  /** The Invoke the run opened is recorded: the next run continues it. */
  invokeOpened(): void;
  /** The run entered `movement`: where it resumes, the event, and the loop guards' state, in one transaction. */
  recordMovement(movement: string, guards: LoopState): void;
  /**
   * The loop guards' state as it is now (a step's writes include it when the step changed it). `changes`: how its call
   * counts changed since the last save, when the caller kept track; without them every call is compared.
   */
  saveGuards(guards: LoopState, changes?: CallChanges): void;
  /** The guards' state this job's lineage left (a park, a retry or a restart), or null for a first run. */
  guards(): LoopState | null;
  otherJob(jobId: string): EngineJob | undefined;
  /** The task's jobs, oldest first. */
  taskJobs(): EngineJob[];
  otherTask(taskId: string): Task | undefined;

  // Comments.
  jobComments(): Comment[];
  taskComments(): Comment[];
  undeliveredInterjections(): Comment[];
  /** Compare-and-set: true when this call delivered it. */
  markDelivered(commentId: string): boolean;
  /** Calls `listener` when an interjection for this job is posted in this process; returns the unsubscribe. */
  onInterjection(listener: () => void): () => void;

  // Requests.
  toolRequests(): DecidedToolRequest[];
  packageRequests(): PackageRequest[];
  /** Compare-and-set before an approved call runs: false when it had started already (a restart mid-call). */
  markToolCallStarted(requestId: string): boolean;
  markPackageStarted(requestId: string): boolean;
  /** The task's grants in force (scope: task). */
  activeGrants(): TaskGrant[];
  /**
   * The approved lessons in scope for this job, most relevant first and within the settings' budget (P2.08); their
   * use is counted. Absent (a journal of a test): none.
   */
  lessons?(): { id: string; text: string }[];

  // Subtasks.
  childJobs(): EngineJob[];
  openChildCount(): number;
  /**
   * Creates a subtask unless `refuse` (given where it would sit) says why not, in one transaction, so two jobs of one
   * tree cannot both take the last place. Returns the refusal, or the new task and job.
   */
  spawnSubtask(draft: SubtaskDraft, refuse: (place: SubtaskPlace) => string | null): string | { task: Task; job: Job };
}

/** Opens the journal of one job's run. */
export type JobJournals = (task: Task, job: EngineJob) => JobJournal;
