// Hears the other hosts' commits: PostgreSQL notifies `maestro_events` when events are inserted (a trigger of the
// schema), and the listener (LISTEN on a connection of its own, asynchronous) calls `onCommit`, at most once per turn
// of the event loop however many notifications came. The connection is opened again with backoff when it drops;
// while it is down, and every few seconds anyway (a notification is not stored: one sent while reconnecting is gone),
// `onCommit` is called on a timer, so nothing waits longer than that for a missed one.
import pg from 'pg';
import { redactUrl } from './pg-db';

export const EVENTS_CHANNEL = 'maestro_events';

export interface CommitWatcherOptions {
  /** How often `onCommit` runs without a notification while listening (default 5 s) and while not (1 s). */
  safetyMs?: number;
  downMs?: number;
  log?: (line: string) => void;
}

export class CommitWatcher {
  private client: pg.Client | null = null;
  private closed = false;
  private listening = false;
  private poked: NodeJS.Immediate | null = null;
  private timer: NodeJS.Timeout | null = null;
  private backoffMs = 250;
  private reconnect: NodeJS.Timeout | null = null;

  constructor(
    private readonly url: string,
    private readonly onCommit: () => void,
    private readonly options: CommitWatcherOptions = {},
  ) {}

  /** Starts listening; resolves once the first LISTEN is in place (or failed: then it is tried again with backoff). */
  async start(): Promise<void> {
    this.tick();
    await this.connect();
  }

  get isListening(): boolean {
    return this.listening;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.reconnect) clearTimeout(this.reconnect);
    if (this.poked) clearImmediate(this.poked);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private readonly fire = (): void => {
    this.poked = null;
    if (this.closed) return;
    try {
      this.onCommit();
    } catch (error) {
      this.log(`reading other hosts' commits failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  private poke(): void {
    this.poked ??= setImmediate(this.fire);
  }

  /** The timer: often while not listening, now and then while listening. */
  private tick(): void {
    if (this.closed) return;
    this.timer = setTimeout(
      () => {
        this.poke();
        this.tick();
      },
      this.listening ? (this.options.safetyMs ?? 5_000) : (this.options.downMs ?? 1_000),
    );
    this.timer.unref();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.url, application_name: 'maestro-listen' });
    client.on('notification', () => this.poke());
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENTS_CHANNEL}`);
      if (this.closed) {
        await client.end();
        return;
      }
      this.client = client;
      this.listening = true;
      this.backoffMs = 250;
      // What was committed while no one listened.
      this.poke();
    } catch (error) {
      this.log(`cannot listen to ${redactUrl(this.url)}: ${error instanceof Error ? error.message : String(error)}`);
      await client.end().catch(() => undefined);
      this.lost(client);
    }
  }

  private lost(client: pg.Client): void {
    if (this.client === client) this.client = null;
    if (this.closed || this.reconnect || this.client) return;
    this.listening = false;
    const wait = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, 10_000);
    this.reconnect = setTimeout(() => {
      this.reconnect = null;
      void this.connect();
    }, wait);
    this.reconnect.unref();
  }

  private log(line: string): void {
    (this.options.log ?? ((l: string) => console.warn(l)))(`MAESTRO: ${line}`);
  }
}
