// The host's Worker: the engine it runs jobs with (the options' own, or the Piece engine once an LLM profile exists),
// its options on this host, and what it reads as each job ends (the Reflection mode, the secrets to redact).

import { randomBytes } from 'node:crypto';
import { REFLECTION_MODES } from '../../src-shared/lessons';
import { gcCheckpointStores } from '../checkpoints/housekeeping';
import type { JobRecord } from '../db/repos/jobs';
import type { Store } from '../db/store';
import { createEngine } from '../engine/engine';
import type { Engine } from '../engine/piece-result';
import type { PieceCatalog } from '../engine/pieces/catalog';
import { jobJournals } from '../jobs/journal';
import type { ReflectionMode } from '../jobs/reflection';
import type { ProfileRegistry } from '../llm/profiles';
import { Worker } from '../worker/worker';
import { DEFAULT_CONCURRENCY } from './concurrency';
import type { AppContext } from './context';
import type { MaestroOptions } from './create-maestro';
import { dataDirId } from './data-dir';
import type { Core } from './host-core';
import { loadSettings } from './settings-file';

/** How often the checkpoints' private repositories are collected, when no job runs. */
const CHECKPOINT_GC_MS = 60 * 60 * 1000;

/**
 * The private repositories' unreferenced objects go when the host is idle: after a job, when none runs and the last
 * collection is an hour old.
 */
function checkpointCollector(store: Store, dataDir: string): () => void {
  let collectedAt = Date.now();
  return () => {
    if (Date.now() - collectedAt < CHECKPOINT_GC_MS || store.jobs.staleRunning(Number.MAX_SAFE_INTEGER).length > 0)
      return;
    collectedAt = Date.now();
    gcCheckpointStores(dataDir).catch((error) => console.error('checkpoint gc failed:', error));
  };
}

/** The engine the options name or make; by default the Piece engine, once an LLM profile exists. */
function engineFor(options: MaestroOptions, core: Core, pieces: PieceCatalog, dataDir: string): Engine | undefined {
  const { store, profiles, sandbox, accepted, agentTokens, sshKeys, checkpoints } = core;
  if (typeof options.engine === 'function') {
    return options.engine({
      store,
      profiles,
      pieces,
      sandbox,
      readSettings: accepted.inForce,
      agentTokens,
      sshKeys,
      checkpoints,
    });
  }
  if (options.engine) return options.engine;
  if (!profiles.defaultName) return undefined;
  return createEngine({
    journals: jobJournals(store, () => loadSettings(dataDir).settings.lessons),
    profiles,
    options: { sandbox, checkpoints },
    pieceExists: (id, ws) => pieces.get(id, ws) !== undefined,
    readSettings: accepted.inForce,
    agentTokens,
    sshKeys,
  });
}

/** A Worker for the engine, or null without one. */
export function makeWorker(options: MaestroOptions, core: Core, ctx: AppContext): Worker | null {
  const engine = engineFor(options, core, ctx.pieces, ctx.dataDir);
  if (!engine) return null;
  const workerIdPrefix = `worker_${dataDirId(ctx.dataDir)}_`;
  const collectIfIdle = checkpointCollector(core.store, ctx.dataDir);
  return new Worker({
    // Jobs mostly wait on the model: several tasks (and a parent's subtasks) can run side by side.
    concurrency: DEFAULT_CONCURRENCY, // one per task at most: the per-task lock still holds
    // The host lock is held: every job left running was left by a host that is gone — on a database of its own. On a
    // shared one, only the jobs of this host's earlier life; the others' are theirs until their leases lapse.
    recoverAllOnStart: core.store.shared ? { workerIdPrefix } : true,
    workerId: `${workerIdPrefix}${randomBytes(6).toString('hex')}`,
    host: ctx.hostName,
    // On a shared database a job may name a profile only other hosts have: this one gives it back (P2.13) for them.
    ...(core.store.shared
      ? {
          folders: () => ctx.presence.folders(),
          serves: (job: JobRecord) => job.profile === null || core.profiles.has(job.profile),
        }
      : {}),
    // Read as each job ends: turning Reflection off in Settings applies to the next job that ends.
    reflectionMode: reflectionModeOf(options, core.store, ctx.dataDir),
    secrets: () => knownSecrets(core.profiles),
    ...options.worker,
    store: core.store,
    engine,
    pieces: ctx.pieces,
    aborts: ctx.aborts,
    mcp: core.mcp,
    dataDir: ctx.dataDir,
    afterSucceeded: async (job) => {
      await core.checkpoints.commitSucceeded(job);
      collectIfIdle();
    },
  });
}

/** MAESTRO_REFLECTION (off, failures, always): the host's own choice over the settings' (a test host, a CI box). */
function reflectionOverride(options: Pick<MaestroOptions, 'env'>): ReflectionMode | undefined {
  const value = (options.env ?? process.env).MAESTRO_REFLECTION;
  return REFLECTION_MODES.find((mode) => mode === value);
}

/**
 * When a job that ended is reflected on by itself (P2.08): MAESTRO_REFLECTION when the host's environment sets it,
 * else what the task's space says, else the settings (read as each job ends, so a change applies to the next one).
 */
export const reflectionModeOf =
  (options: Pick<MaestroOptions, 'env'>, store: Store, dataDir: string) =>
  (job: Pick<JobRecord, 'taskId'>): ReflectionMode =>
    reflectionOverride(options) ??
    spaceReflection(store, job.taskId) ??
    loadSettings(dataDir).settings.lessons.reflection;

/** What the task's space says about Reflection, if it says anything. */
function spaceReflection(store: Store, taskId: string): ReflectionMode | undefined {
  const spaceId = store.tasks.spaceId(taskId);
  return spaceId ? store.spaces.get(spaceId)?.reflection : undefined;
}

/** The API keys of the profiles that can be opened: what a Reflection redacts besides the shapes of keys. */
export function knownSecrets(profiles: ProfileRegistry): string[] {
  const keys: string[] = [];
  for (const { name } of profiles.list().profiles) {
    try {
      const key = profiles.get(name)?.apiKey;
      if (key) keys.push(key);
    } catch {
      // A key that cannot be opened is not in anything this host sent or received.
    }
  }
  return keys;
}
