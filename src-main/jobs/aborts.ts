// Abort signals of the jobs running in this process, so a cancel reaches the running agent at once. The reason is a
// typed JobAbort (engine/abort.ts): whoever reads it asks its kind, never its words.
import { setMaxListeners } from 'node:events';
import { type AbortKind, JobAbort } from '../engine/abort';

/**
 * One job's signal is followed by each of its MCP servers' requests at once (five servers listing their tools are five
 * listeners), its model call, its commands and its waits: more than Node's default of 10 is the normal case, not a
 * leak, and the warning would only be noise in the host's log.
 */
const JOB_SIGNAL_LISTENERS = 100;

export class JobAborts {
  private readonly controllers = new Map<string, AbortController>();

  register(jobId: string): AbortSignal {
    const controller = new AbortController();
    setMaxListeners(JOB_SIGNAL_LISTENERS, controller.signal);
    this.controllers.set(jobId, controller);
    return controller.signal;
  }

  /** Forgets the job's controller; with `signal`, only when it is still that run's (a later run keeps its own). */
  release(jobId: string, signal?: AbortSignal): void {
    if (!signal || this.controllers.get(jobId)?.signal === signal) this.controllers.delete(jobId);
  }

  /** True when the job was running here and is now told to stop, for `reason` (of `kind`). */
  abort(jobId: string, reason: string, kind: AbortKind = 'cancelled'): boolean {
    const controller = this.controllers.get(jobId);
    controller?.abort(new JobAbort(kind, reason));
    return controller !== undefined;
  }
}
