// Abort signals of the jobs running in this process, so a cancel reaches the running agent at once.
export class JobAborts {
  private readonly controllers = new Map<string, AbortController>();

  register(jobId: string): AbortSignal {
    const controller = new AbortController();
    this.controllers.set(jobId, controller);
    return controller.signal;
  }

  /** Forgets the job's controller; with `signal`, only when it is still that run's (a later run keeps its own). */
  release(jobId: string, signal?: AbortSignal): void {
    if (!signal || this.controllers.get(jobId)?.signal === signal) this.controllers.delete(jobId);
  }

  /** True when the job was running here and is now told to stop. */
  abort(jobId: string, reason: string): boolean {
    const controller = this.controllers.get(jobId);
    controller?.abort(new Error(reason));
    return controller !== undefined;
  }
}
