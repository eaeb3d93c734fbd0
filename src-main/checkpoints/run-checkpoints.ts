// The checkpoints of one job run, as the engine drives them (RunCheckpoints): at the Send's start, before each step
// that may change files (captured while the model generates, sealed while the step runs) and at the run's end. A slow
// or failed snapshot never holds a step up; the chat says so once.

import type { Task } from '../../src-shared/entities';
import type { JobRecord } from '../db/repos/jobs';
import type { RunCheckpoints } from '../engine/job-run';
import type { CheckpointService } from './service';
import type { Captured, SnapshotStore } from './types';

/**
 * The checkpoints of one job run: one at the Send's start (when the job starts an Invoke), one before each step that
 * may change files. A slow or failed snapshot never holds the step up: the step goes on, the chat says so once.
 */
export class JobCheckpoints implements RunCheckpoints {
  private missedSaid = false;
  /** The call that ran since the last checkpoint and may have changed files: what the next checkpoint's are by. */
  private lastStep: string | null = null;
  /** Steps that may change files begun in this run: a capture taken at an earlier count is stale. */
  private steps = 0;
  /** A capture started when the model was asked (the state after the last step), for the step it may call. */
  private prefetched: { captured: Promise<Captured | null>; steps: number } | null = null;
  /** Captured trees being made checkpoints, in order, while the steps go on. */
  private sealing: Promise<unknown> = Promise.resolve();
  /** Checkpoints sealed whose refs are not written yet (flush writes them). */
  private readonly refs: { ref: string; commit: string }[] = [];
  /** The tree of the last checkpoint this run sealed: a capture with the same tree changed nothing. */
  private lastTree: string | null = null;
  /** The Send's checkpoint being taken: every later checkpoint (so every step) waits for it. */
  private invoking: Promise<void> = Promise.resolve();

  constructor(
    private readonly service: CheckpointService,
    /** The task's store, being opened; null when its workspace has none (the run then takes no checkpoint). */
    private readonly snapshots: Promise<SnapshotStore | null>,
    private readonly task: Task,
    private readonly job: JobRecord,
  ) {}

  /**
   * At an Invoke's start (Send #N): the workspace as the Send found it. The run goes on to ask the model meanwhile
   * (that changes no file); the first step, or the run's end, waits for the capture. Its ref is written with the
   * run's others (flush); until then its commit is kept as every young object is.
   */
  async atInvoke(): Promise<void> {
    this.lastStep = null;
    this.invoking = this.take('send', { callId: null, changedBy: null }, null);
  }

  /**
   * When the model is asked: no step runs until it answers, so the workspace is captured now, while it generates —
   * the checkpoint before the step it may call then costs nothing more. (A person's edit made while the model
   * generates is caught by the next checkpoint instead.)
   */
  prefetch(): void {
    if (this.prefetched?.steps === this.steps) return;
    const captured = this.snapshots.then((s) => (s ? this.service.capture(s, this.task.id) : null));
    captured.catch(() => {}); // its failure is the step's to note, if the step uses it
    this.prefetched = { captured, steps: this.steps };
  }

  /** Before a step (tool call `callId`) that may change files. */
  async beforeStep(callId: string): Promise<void> {
    await this.invoking;
    const fresh = this.prefetched?.steps === this.steps ? this.prefetched.captured : null;
    this.prefetched = null;
    const changedBy = this.lastStep;
    this.lastStep = callId;
    this.steps++;
    await this.take('step', { callId, changedBy }, fresh);
  }

  /**
   * When the run ends (done, parked or failed): what its last step changed, recorded before the job's state is — from
   * the capture taken while the model wrote its last answer, when it was asked after that step.
   */
  async atEnd(): Promise<void> {
    await this.invoking;
    const fresh = this.prefetched?.steps === this.steps ? this.prefetched.captured : null;
    this.prefetched = null;
    if (this.lastStep !== null) await this.take('step', { callId: null, changedBy: this.lastStep }, fresh);
    this.lastStep = null;
    await this.flush();
  }

  /**
   * Captures the workspace (or takes the prefetched capture): that is all the step waits for, and never longer than
   * the service's slow limit. The checkpoint is sealed behind it while the step runs.
   */
  private async take(
    kind: 'send' | 'step',
    step: { callId: string | null; changedBy: string | null },
    prefetched: Promise<Captured | null> | null,
  ): Promise<void> {
    const snapshots = await this.snapshots;
    if (!snapshots) return;
    const capture = prefetched ?? this.service.capture(snapshots, this.task.id);
    let timer: NodeJS.Timeout | undefined;
    const slow = new Promise<'slow'>((resolve) => {
      timer = setTimeout(() => resolve('slow'), this.service.slowMs);
    });
    let captured: Captured | null;
    try {
      const outcome = await Promise.race([capture, slow]);
      if (outcome === 'slow') {
        this.missed('slow', `a checkpoint took longer than ${this.service.slowMs} ms and was not kept`);
        return;
      }
      captured = outcome;
    } catch (error) {
      this.missed('failed', `a checkpoint could not be taken: ${(error as Error).message}`);
      return;
    } finally {
      clearTimeout(timer);
    }
    if (captured === null || (kind === 'step' && captured.tree === this.lastTree)) return;
    this.lastTree = captured.tree;
    this.sealing = this.sealing.then(() =>
      this.service
        .seal(snapshots, this.task, this.job.id, kind, step, captured)
        .then((kept) => {
          if (kept) this.refs.push({ ref: kept.ref, commit: kept.snapshot });
        })
        .catch((error: unknown) =>
          this.missed('failed', `a checkpoint could not be kept: ${(error as Error).message}`),
        ),
    );
  }

  /** Waits for the checkpoints being sealed, then writes their refs in one go. */
  private async flush(): Promise<void> {
    await this.sealing;
    const refs = this.refs.splice(0);
    const snapshots = await this.snapshots;
    if (refs.length === 0 || !snapshots) return;
    await snapshots
      .keepRefs(refs)
      .catch((error: unknown) => this.missed('failed', `checkpoints could not be kept: ${(error as Error).message}`));
  }

  private missed(reason: 'slow' | 'failed', detail: string): void {
    console.error(`task ${this.task.id}: ${detail}`);
    if (this.missedSaid) return;
    this.missedSaid = true;
    try {
      this.service.comment(this.task.id, this.job.id, `${detail}; the step went on.`, {
        code: 'checkpoint_missed',
        reason,
      });
    } catch (error) {
      console.error(`task ${this.task.id}: the missed checkpoint was not noted:`, error);
    }
  }
}
