// Job preparation, between the claim and the engine: the task's workspace checked, the job parked while its folder
// has settings files no person ever accepted (settings-wait.ts), its piece checked, the runtime dir made, settings
// files changed outside MAESTRO reported (their accepted versions apply), the Auto Prompter's Policy Snapshot taken
// from the accepted rules, the LLM Router's pick (P10.05), and the workspace's MCP servers opened (spec §2 K), with a
// warning in the task for a server that is left out or crashes.
import fs from 'node:fs';
import type { Task } from '../../src-shared/entities';
import type { JobRecord } from '../db/repos/jobs';
import type { Store } from '../db/store';
import { openSnapshot } from '../engine/auto-prompter-snapshot';
import type { Engine, StartMovement } from '../engine/piece-result';
import type { PieceCatalog, PieceDefinition } from '../engine/pieces/catalog';
import { startOf } from '../engine/pieces/schema';
import { routed as pieceRouted } from '../jobs/claim';
import { postNote } from '../jobs/lifecycle';
import type { PieceRunResult } from '../jobs/piece-run-result';
import { JobCommandError } from '../jobs/refusal';
import { appliesTo, resumeSettingsWaits, settingsWaitResult, unreviewedSettings } from '../jobs/settings-wait';
import { wakeParked } from '../jobs/wake';
import type { McpJobServers, McpSession } from '../mcp/session';
import { AcceptedSettings, type SettingsChange } from '../workspace/accepted-settings';
import { ConfigFileError } from '../workspace/json-file';
import { runtimeDir } from '../workspace/paths';

export interface PreparationOptions {
  store: Store;
  engine: Engine;
  pieces: PieceCatalog;
  dataDir: string;
  /** Whether this worker can run the job with its piece (model/tool requirements); false → back to queued. */
  serves?: (job: JobRecord, piece: PieceDefinition) => boolean;
  /** The MCP servers of a job's workspace, opened before the engine runs and closed when the job ends. */
  mcp?: McpJobServers;
}

export type Prepared =
  | { kind: 'run'; piece: PieceDefinition; start: StartMovement; workspacePath: string; runtimeDir: string }
  | { kind: 'requeue' }
  | { kind: 'fatal'; result: PieceRunResult }
  /** Parked before it began: its folder's settings files wait to be reviewed. */
  | { kind: 'wait'; result: PieceRunResult };

export type McpOpened =
  | { kind: 'run'; session?: McpSession }
  | { kind: 'stop'; result: PieceRunResult; savedCount?: number };

export class JobPreparation {
  /** The accepted versions of the workspaces' settings files (read from the data dir each time: never stale). */
  private readonly accepted: AcceptedSettings;

  constructor(private readonly o: PreparationOptions) {
    this.accepted = new AcceptedSettings(o.dataDir);
  }

  /**
   * Spec §2 K, before the LLM client is made: the MCP servers of a persistent workspace. A missing or refused token
   * parks the job (KH: waiting_human + mcp_auth_required in the movement it would start in, its Invoke still
   * pending); a broken mcp.json fails it. A server that cannot be started, or crashes later, leaves the others
   * working: the task gets a system comment naming it (warnMcp).
   */
  async openMcp(job: JobRecord, prepared: Extract<Prepared, { kind: 'run' }>, signal: AbortSignal): Promise<McpOpened> {
    const { store, mcp } = this.o;
    if (!mcp || store.tasks.workspaceKind(job.taskId) !== 'persistent') return { kind: 'run' };
    try {
      const opened = await mcp.open(
        prepared.workspacePath,
        signal,
        {
          onWarning: (server, message) => this.warnMcp(job, server, message),
          job: { taskId: job.taskId, jobId: job.id, profile: job.profile },
        },
        job.taskId,
      );
      if (opened.kind === 'ready') return { kind: 'run', session: opened.session };
      const movement = prepared.start.name;
      return {
        kind: 'stop',
        result: {
          kind: 'waiting_human',
          reason: 'mcp_auth_required',
          movement,
          message: opened.message,
          notice: { code: 'mcp_auth', server: opened.server },
        },
        savedCount: opened.savedCount,
      };
    } catch (error) {
      if (error instanceof ConfigFileError) return { kind: 'stop', result: fatalResult(error.message) };
      return { kind: 'stop', result: { kind: 'error', message: (error as Error).message, retryable: true } };
    }
  }

  /** A warning about one of the job's MCP servers, as a system comment the task shows; a failed write only logs. */
  private warnMcp(job: JobRecord, server: string, message: string): void {
    const { store } = this.o;
    try {
      postNote(store, { taskId: job.taskId, jobId: job.id, body: message, notice: { code: 'mcp_warning', server } });
    } catch (error) {
      console.error(`job ${job.id}: ${message} (not recorded: ${(error as Error).message})`);
    }
  }

  /** A token saved while the job was checking its own may have missed the parked job (P2.16): it goes on now. */
  resumeIfTokenSaved(after: JobRecord | undefined, savedCount: number | undefined): JobRecord | undefined {
    const { store, mcp } = this.o;
    if (after?.waitReason !== 'mcp_auth_required' || savedCount === undefined || !mcp?.tokenSavedSince(savedCount))
      return after;
    try {
      return wakeParked(store, after.id, 'token_saved');
    } catch (error) {
      // The save woke it first (or it was cancelled meanwhile): nothing left to do.
      if (error instanceof JobCommandError) return store.jobs.get(after.id) ?? after;
      throw error;
    }
  }

  /**
   * A file decided while the job was being parked may have found it still running: it goes on now when none of its
   * folder's files waits any more. A file that cannot be read leaves it parked (the task's cards say why).
   */
  resumeIfSettingsReviewed(after: JobRecord | undefined): JobRecord | undefined {
    const { store } = this.o;
    const task = after?.waitReason === 'settings' ? store.tasks.get(after.taskId) : undefined;
    if (!after || !task) return after;
    try {
      return resumeSettingsWaits(store, this.accepted, task.workspacePath).find((j) => j.id === after.id) ?? after;
    } catch (error) {
      if (error instanceof ConfigFileError) return after;
      throw error;
    }
  }

  /**
   * P10.05/P10.06: a task waiting for the LLM Router gets its piece before its first job runs — the router's pick, or
   * the default it already holds when the router fails (a warning in the event). Either way the choice is final.
   */
  async route(
    job: JobRecord,
    prepared: Extract<Prepared, { kind: 'run' }>,
    signal: AbortSignal,
  ): Promise<Exclude<Prepared, { kind: 'requeue' | 'wait' }>> {
    const { store, engine } = this.o;
    const task = store.tasks.get(job.taskId);
    if (!task || !engine.routePiece || store.tasks.pieceChoice(task.id) !== 'route') return prepared;
    const available = this.piecesOf(task).pieces;
    const outcome = await engine.routePiece({ job, task, pieces: available, signal });
    const pieceId = outcome.kind === 'chosen' ? outcome.pieceId : task.pieceId;
    const warning = outcome.kind === 'fallback' ? `${outcome.reason}; running the ${pieceId} piece` : null;
    const routed = pieceRouted(store, job.id, job.workerId as string, { pieceId, warning });
    if (outcome.kind === 'fallback') console.warn(`task ${task.id}: ${outcome.reason}; running the ${pieceId} piece`);
    const again = this.check(routed ?? { ...job, pieceId }, task);
    return again.kind === 'requeue' ? fatalPrepared(`this worker does not serve the routed piece ${pieceId}`) : again;
  }

  /** The pieces a task can run: the built-in ones, and a persistent workspace's own. */
  private piecesOf(task: Task) {
    const persistent = this.o.store.tasks.workspaceKind(task.id) === 'persistent';
    return this.o.pieces.load(persistent ? task.workspacePath : null);
  }

  /**
   * Prepares a job that was just claimed: its folder found, parked while settings files of it wait to be reviewed,
   * checked, its settings changes reported, its Policy Snapshot taken.
   */
  prepare(job: JobRecord): Prepared {
    const task = this.o.store.tasks.get(job.taskId);
    if (!task) return fatalPrepared(`task ${job.taskId} does not exist`);
    if (!isFolder(task.workspacePath))
      return fatalPrepared(`the workspace folder ${task.workspacePath} no longer exists`);
    const persistent = this.o.store.tasks.workspaceKind(task.id) === 'persistent';
    let changes: SettingsChange[];
    try {
      // Before the piece is loaded: a piece of the folder is one of its settings files. (Read once: each file of
      // the folder is read and compared.)
      changes = this.accepted.changes(task.workspacePath);
    } catch (error) {
      if (error instanceof ConfigFileError) return fatalPrepared(error.message);
      throw error;
    }
    const unreviewed = unreviewedSettings(changes, persistent);
    if (unreviewed.length > 0) return { kind: 'wait', result: settingsWaitResult(job, task.workspacePath, unreviewed) };
    const prepared = this.check(job, task);
    if (prepared.kind !== 'run') return prepared;
    this.reportChanges(job, prepared.workspacePath, changes, persistent);
    try {
      // Taken now, from the accepted rules: the engine then finds it stored and never reads the workspace's file.
      openSnapshot(prepared.workspacePath, prepared.runtimeDir, job.id, this.accepted.inForce);
    } catch (error) {
      if (error instanceof ConfigFileError) return fatalPrepared(error.message);
      throw error;
    }
    return prepared;
  }

  /**
   * One `settings.changed` event per settings file of the job's workspace that is not the accepted version (the
   * task view shows the change to accept or reject). An ephemeral workspace has no MCP servers or pieces of its own.
   */
  private reportChanges(
    job: JobRecord,
    workspacePath: string,
    changes: readonly SettingsChange[],
    persistent: boolean,
  ): void {
    const { store } = this.o;
    for (const change of changes.filter((c) => appliesTo(persistent)(c.file))) {
      store.publish({
        type: 'settings.changed',
        taskId: job.taskId,
        jobId: job.id,
        workspacePath,
        file: change.file,
        inForce: change.accepted === null ? 'default' : 'accepted',
      });
    }
  }

  private check(job: JobRecord, task: Task): Exclude<Prepared, { kind: 'wait' }> {
    const { dataDir } = this.o;
    const loaded = this.piecesOf(task);
    const piece = loaded.pieces.find((p) => p.id === job.pieceId);
    if (!piece) {
      const broken = loaded.errors.map((e) => `${e.file}: ${e.message}`).join('; ');
      return fatalPrepared(`piece ${job.pieceId} is not available${broken ? ` (${broken})` : ''}`);
    }
    if (this.o.serves && !this.o.serves(job, piece)) return { kind: 'requeue' };
    const dir = runtimeDir(dataDir, task.id);
    fs.mkdirSync(dir, { recursive: true });
    const start = startOf(piece, job.resumeMovement);
    return { kind: 'run', piece, start, workspacePath: task.workspacePath, runtimeDir: dir };
  }
}

const fatalPrepared = (message: string) => ({ kind: 'fatal' as const, result: fatalResult(message) });

function isFolder(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

const fatalResult = (message: string): PieceRunResult => ({ kind: 'error', message, retryable: false });
