// The tool-loop guard (TAKT's LoopDetector): the same call — name and arguments — made `repeatedCalls` times in one
// job's lineage stops it, however many parks, retries and restarts lie between the calls.
import { hash } from 'node:crypto';

/**
 * A call's name and arguments as a short digest: the state stores no arguments. One-shot `hash`: a Hash object costs
 * ~30 µs more per call on the path from a reply to the next request.
 */
const digest = (key: string) => hash('sha256', key, 'base64url').slice(0, 22);

export class CallLoopGuard {
  /** The calls counted since the last takeCounted(): what the next save of the state has to write. */
  private counted = new Set<string>();

  constructor(
    private readonly calls: Record<string, number>,
    private readonly limit: number,
  ) {}

  /** Counts a call by its key; true when this makes it a loop. */
  count(key: string): { times: number; loop: boolean } {
    const id = digest(key);
    const times = (this.calls[id] ?? 0) + 1;
    this.calls[id] = times;
    this.counted.add(id);
    return { times, loop: times >= this.limit };
  }

  /** The ids counted since the last take. */
  takeCounted(): ReadonlySet<string> {
    const counted = this.counted;
    this.counted = new Set();
    return counted;
  }

  /** How often the call was made (counted before). */
  times(key: string): number {
    return this.calls[digest(key)] ?? 0;
  }
}
