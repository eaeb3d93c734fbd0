// The state of one job's run through a piece: its conversation, tools, log and stream, and the small operations the
// loop needs (answer a call, queue a note, deliver pending user messages).
import type { z } from 'zod';
import type { Task } from '../../src-shared/entities';
import type { ToolSpec } from '../llm/types';
import type { SandboxChoice } from '../tools/os-sandbox';
import type { ToolRules } from '../tools/permission';
import type { AnyToolDef, ToolContext, ToolResult } from '../tools/types';
import type { SettingsText } from '../workspace/accepted-settings';
import type { Conversation } from './conversation';
import { LoopGuards } from './guards/loop-guards';
import type { EngineJob } from './job-journal';
import type { JobStream } from './job-stream';
import type { LlmPort } from './llm-port';
import { type MediaFromCall, mediaParts } from './media-parts';
import type { MovementDefinition, PieceDefinition } from './pieces/schema';
import type { PromptGuard } from './prompt-guard';
import type { RunLog } from './run-log';
import { ToolCache } from './tool-cache';
import type { ToolCall } from './tool-dispatch';
import type { WriteBehindJournal } from './write-behind';

export interface EngineLimits {
  /** Text-only replies in a row before the movement stops. */
  textOnlyReplies: number;
  /** The same call (name + arguments) this many times in one job stops it as a tool loop. */
  repeatedCalls: number;
  /** Iterations without progress before a watchdog note. */
  watchdogIterations: number;
  /** Questions to the user per task. */
  asks: number;
}

export const DEFAULT_LIMITS: EngineLimits = { textOnlyReplies: 3, repeatedCalls: 5, watchdogIterations: 12, asks: 5 };

/** A job run's checkpoints, as the engine drives them (checkpoints/service.ts takes them). */
export interface RunCheckpoints {
  /** At an Invoke's start: the workspace as the Send found it. */
  atInvoke(): Promise<void>;
  /** The model is asked: the workspace may be captured meanwhile. */
  prefetch(): void;
  /** Before a step that may change files. */
  beforeStep(callId: string): Promise<void>;
  /** When the run ends, whatever the end. */
  atEnd(): Promise<void>;
}

/** Where a job run gets its checkpoints: null when its workspace has none. */
export interface CheckpointSource {
  forJob(task: Task, job: EngineJob): Promise<RunCheckpoints | null>;
}

export interface EngineOptions {
  limits: EngineLimits;
  promptGuard: PromptGuard;
  /** Wall-clock budget of one job run, or null. */
  deadlineMs: number | null;
  streamIntervalMs: number;
  /** The host's OS sandbox for commands, or why there is none. */
  sandbox: SandboxChoice;
  /** Takes the tasks' checkpoints (issue 22); none in tests that do not need them. */
  checkpoints?: CheckpointSource;
  /** The workspace's settings files as accepted (the Auto Prompter's rules among them); absent: as on disk. */
  readSettings?: SettingsText;
}

export interface JobRunInit {
  /** The job's journal: everything the run records and reads back goes through it. */
  journal: WriteBehindJournal;
  /** The loop guards over the lineage's state (a delegated sub-agent's start from zero and are not stored). */
  guards: LoopGuards;
  piece: PieceDefinition;
  workspacePath: string;
  runtimeDir: string;
  signal: AbortSignal;
  llm: LlmPort;
  conversation: Conversation;
  tools: readonly AnyToolDef[];
  /** The Workspace Tool Policy's rules and the task's grants, applied to every call (tools/permission.ts). */
  rules: ToolRules;
  toolSpecs: ToolSpec[];
  transitionArgs: z.ZodType;
  log: RunLog;
  stream: JobStream;
  options: EngineOptions;
  /** 0 for the job itself; a delegated sub-agent runs one deeper. */
  depth?: number;
  /** The read-only tool cache (P4.36); a delegated sub-agent shares its parent's. */
  toolCache?: ToolCache;
  /** This run's checkpoints: one before each step that may change files (a sub-agent's steps too). */
  checkpoints?: RunCheckpoints | null;
}

const INTERJECTION_POLL_MS = 1000;

export class JobRun {
  readonly journal: WriteBehindJournal;
  readonly job: EngineJob;
  readonly guards: LoopGuards;
  readonly piece: PieceDefinition;
  readonly signal: AbortSignal;
  readonly llm: LlmPort;
  readonly conversation: Conversation;
  readonly tools: ReadonlyMap<string, AnyToolDef>;
  readonly rules: ToolRules;
  readonly toolSpecs: ToolSpec[];
  readonly transitionArgs: z.ZodType;
  readonly log: RunLog;
  readonly stream: JobStream;
  readonly options: EngineOptions;
  readonly deadline: number | null;
  readonly depth: number;
  readonly toolCache: ToolCache;
  /**
   * The structured results of routed movements (TAKT's `structured.<step>`), by movement name: what the engine's when()
   * rules read. In the lineage's loop state, saved with it (the next movement's record), so they outlive a park.
   */
  get structured(): ReadonlyMap<string, unknown> {
    return new Map(Object.entries(this.guards.state.structured ?? {}));
  }

  /** Keeps a routed movement's structured result (saved with the loop state when the next movement is recorded). */
  keepStructured(movement: string, value: unknown): void {
    this.guards.state.structured = { ...this.guards.state.structured, [movement]: value };
  }
  private readonly workspacePath: string;
  private readonly init: JobRunInit;
  private notes: { text: string; log: boolean }[] = [];
  /** Images and audio of tool results the model takes, for the next user message (media-parts.ts). */
  private media: MediaFromCall[] = [];
  /** Set when an interjection for this job is posted in this process; the DB is also polled now and then. */
  private interjectionDue = true;
  private lastInterjectionPoll = 0;
  private readonly unsubscribe: () => void;
  /** The AgentTurn (its log seq) of each call this run's turns made, so its answer joins the step that made it. */
  private readonly turnOfCall = new Map<string, number>();

  constructor(init: JobRunInit) {
    this.journal = init.journal;
    this.job = init.journal.job;
    this.guards = init.guards;
    this.piece = init.piece;
    this.signal = init.signal;
    this.llm = init.llm;
    this.conversation = init.conversation;
    this.tools = new Map(init.tools.map((t) => [t.name, t]));
    this.rules = init.rules;
    this.toolSpecs = init.toolSpecs;
    this.transitionArgs = init.transitionArgs;
    this.log = init.log;
    this.stream = init.stream;
    this.options = init.options;
    this.workspacePath = init.workspacePath;
    this.init = init;
    this.depth = init.depth ?? 0;
    this.toolCache = init.toolCache ?? new ToolCache();
    this.deadline = init.options.deadlineMs === null ? null : Date.now() + init.options.deadlineMs;
    this.unsubscribe = this.journal.onInterjection(() => {
      this.interjectionDue = true;
    });
  }

  /** The model is about to be asked: the workspace is captured meanwhile, for the checkpoint of the step it calls. */
  prefetchCheckpoint(): void {
    this.init.checkpoints?.prefetch();
  }

  /** A sub-agent's run: the same job, log and model, one level deeper, with its own conversation and tools. */
  delegateRun(conversation: Conversation, tools: readonly AnyToolDef[], toolSpecs: ToolSpec[]): JobRun {
    return new JobRun({
      ...this.init,
      conversation,
      tools,
      toolSpecs,
      depth: this.depth + 1,
      toolCache: this.toolCache,
      guards: LoopGuards.fresh(this.options.limits),
    });
  }

  /** Stores the loop guards' state (within the step being recorded, when there is one); a sub-agent's stay here. */
  saveGuards(): void {
    if (this.depth === 0) this.journal.saveGuards(this.guards.state, this.guards.takeCallChanges());
  }

  /** Ends the run's subscriptions. */
  dispose(): void {
    this.unsubscribe();
  }

  get askCount(): number {
    return this.job.askCount;
  }

  openChildCount(): number {
    return this.journal.openChildCount();
  }

  toolContext(movement: MovementDefinition): ToolContext {
    return {
      taskId: this.job.taskId,
      jobId: this.job.id,
      workspacePath: this.workspacePath,
      canEdit: movement.edit,
      signal: this.signal,
      runtimeDir: this.init.runtimeDir,
      sandbox: this.options.sandbox,
      ...(movement.facetPools ? { facetPools: movement.facetPools } : {}),
      onToolProgress: (call, update) => this.stream.toolProgress(call, update),
      ...(this.init.checkpoints ? { beforeChange: (callId: string) => this.init.checkpoints?.beforeStep(callId) } : {}),
    };
  }

  /** Interjections not yet delivered: read when one was posted here, and at least every second (other writers). */
  private pendingInterjections() {
    const now = Date.now();
    // The user talks to the job's own agent, not to a delegated sub-agent.
    if (this.depth > 0) return [];
    if (!this.interjectionDue && now - this.lastInterjectionPoll < INTERJECTION_POLL_MS) return [];
    this.interjectionDue = false;
    this.lastInterjectionPoll = now;
    return this.journal.undeliveredInterjections();
  }

  /**
   * Records a step of the loop: what `record` writes is one transcript append and one transaction, the transcript
   * first (a failed write rolls the transaction back).
   */
  recordStep<T>(record: () => T): T {
    return this.journal.step(() => this.conversation.asOneStep(record));
  }

  /**
   * The same, with the transaction committed behind the next request to the model (write-behind.ts): the transcript
   * has the step when it returns, the journal a moment later.
   */
  recordStepBehind<T>(record: () => T): T {
    return this.journal.stepBehind(() => this.conversation.asOneStep(record));
  }

  /** Notes the AgentTurn that made `calls` (see answer). */
  recordTurn(seq: number, calls: readonly { id: string }[]): void {
    for (const call of calls) this.turnOfCall.set(call.id, seq);
  }

  /**
   * Answers a tool call: conversation + transcript (its text), ToolTurn (joined to the AgentTurn that made the call:
   * this run's, or, for a call made before a restart or an approval, the job's latest turn that made it), event. The
   * conversation gets `content` only; the result's `display` is for the person, in the ToolTurn.
   */
  answer(call: ToolCall, result: ToolResult): void {
    const { content } = result;
    this.conversation.append({ role: 'tool', tool_call_id: call.id, content });
    const taken = (result.media ?? []).filter((m) => this.llm.media?.includes(m.kind));
    if (taken.length > 0) this.media.push({ call: call.name, callId: call.id, media: taken });
    this.stream.flushProgress();
    const turnSeq = this.turnOfCall.get(call.id) ?? this.journal.turnOfCall(call.id);
    this.log.toolTurn(turnSeq, call.id, call.name, result);
    this.log.event({
      type: 'tool.finished',
      taskId: this.job.taskId,
      jobId: this.job.id,
      callId: call.id,
      name: call.name,
      ok: result.ok,
      preview: content.slice(0, 500),
      ...(result.denial === undefined ? {} : { denial: result.denial }),
    });
  }

  /** A system note (movement guidance, warning) to append before the next LLM call. */
  queueNote(text: string, logAsSystemTurn = true): void {
    this.notes.push({ text, log: logAsSystemTurn });
  }

  /**
   * Appends what is due — system notes, then the user's interjections in arrival order, then the images and audio
   * of the last tool results for a model that takes them — as ONE user message at the end, so no two user messages
   * adjoin. Interjections are marked delivered (CAS) so none is delivered twice; the
   * marks and the log's turns are one transaction, the message is in the transcript before it commits.
   */
  deliverPendingUserMessages(): void {
    const interjections = this.pendingInterjections();
    if (this.notes.length === 0 && interjections.length === 0 && this.media.length === 0) return;
    this.recordStep(() => {
      const parts: string[] = [];
      for (const note of this.notes) {
        parts.push(note.text);
        if (note.log) this.log.systemTurn(note.text);
      }
      this.notes = [];
      for (const c of interjections) {
        if (!this.journal.markDelivered(c.id)) continue;
        parts.push(`Message from the user: ${c.body}`);
        this.log.userTurn(c.body);
      }
      const text = parts.join('\n\n');
      if (this.media.length > 0) this.conversation.append({ role: 'user', content: mediaParts(text, this.media) });
      else if (parts.length > 0) this.conversation.append({ role: 'user', content: text });
      this.media = [];
    });
  }
}
