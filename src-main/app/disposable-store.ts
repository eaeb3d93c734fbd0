// What a host holds open, released in the reverse of the order it was taken (VS Code's DisposableStore): whatever was
// opened later may use what was opened earlier, so it is closed first; a disposer that fails is reported and the
// rest still run; disposing twice is a no-op.

/** Releases one thing; may finish later. */
export type Disposer = () => void | Promise<void>;

/** Told of each disposer that failed, by the name it was added with. */
export type DisposeFailure = (name: string, error: unknown) => void;

const logFailure: DisposeFailure = (name, error) => console.error(`closing ${name} failed:`, error);

export class DisposableStore {
  private readonly held: { name: string; dispose: Disposer }[] = [];
  private disposing: Promise<void> | null = null;

  constructor(private readonly onFailure: DisposeFailure = logFailure) {}

  /** Holds `dispose` until the store is disposed; added after that, it runs at once (nothing is left open). */
  add(name: string, dispose: Disposer): void {
    if (this.disposing) {
      void this.release({ name, dispose });
      return;
    }
    this.held.push({ name, dispose });
  }

  /**
   * Runs every disposer, last added first, each after the previous one finished. Synchronous disposers run before
   * this returns (a failed start can release the DB and the lock at once); the promise settles when all have run.
   * It never rejects: failures go to `onFailure`.
   */
  dispose(): Promise<void> {
    this.disposing ??= this.releaseAll();
    return this.disposing;
  }

  get disposed(): boolean {
    return this.disposing !== null;
  }

  private async releaseAll(): Promise<void> {
    for (let next = this.held.pop(); next; next = this.held.pop()) {
      const pending = this.release(next);
      if (pending) await pending;
    }
  }

  /** Runs one disposer: undefined when it finished synchronously, else the promise of its end. */
  private release({ name, dispose }: { name: string; dispose: Disposer }): Promise<void> | undefined {
    try {
      const result = dispose();
      if (result instanceof Promise) return result.catch((error: unknown) => this.onFailure(name, error));
    } catch (error) {
      this.onFailure(name, error);
    }
    return undefined;
  }
}
