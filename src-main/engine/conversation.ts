// The Conversation of a job and its transcript (runs/{taskId}/transcript.jsonl): one JSON line per message, threads
// begin at a system line. Turns are appended; rewrite() rebuilds the file atomically. Earlier jobs' threads are kept.
// Lines are written behind, like the run log's entries: at most `writeBehindMs` after they were appended, in one write,
// and always when the run ends (close) or the file is rebuilt — so a fast loop does not pay a write per iteration, and
// a crash loses at most the last `writeBehindMs` of turns, which a resumed job then takes again.
import fs from 'node:fs';
import path from 'node:path';
import { jsonOnce } from '../llm/message-json';
import type { ChatMessage } from '../llm/types';
import { writeFileAtomic } from '../workspace/atomic-write';

export type { ChatMessage };

export interface TranscriptLine {
  ts: string;
  jobId: string;
  message: ChatMessage;
}

export const TRANSCRIPT_FILE = 'transcript.jsonl';

/** Parses transcript lines; a torn or unparsable line (a crash mid-write) is skipped, never fatal. */
export function parseTranscript(text: string): TranscriptLine[] {
  const lines: TranscriptLine[] = [];
  for (const raw of text.split('\n')) {
    if (!raw.trim()) continue;
    try {
      const line = JSON.parse(raw) as TranscriptLine;
      if (line && typeof line === 'object' && line.message && typeof line.message.role === 'string') lines.push(line);
    } catch {
      // torn line
    }
  }
  return lines;
}

/** Splits lines into threads, each starting at a system line (lines before the first system line form none). */
export function splitThreads(lines: TranscriptLine[]): TranscriptLine[][] {
  const threads: TranscriptLine[][] = [];
  for (const line of lines) {
    if (line.message.role === 'system') threads.push([line]);
    else threads.at(-1)?.push(line);
  }
  return threads;
}

export class Conversation {
  private current: ChatMessage[] = [];
  /** The file's bytes before this job's thread: earlier jobs' threads, kept by rewrite(). */
  private prior: string;
  private fd: number | null = null;
  private unwritten = '';
  private timer: NodeJS.Timeout | undefined;
  /** A write behind that failed (a full disk), until checkWrites() reports it; the lines are kept for the next write. */
  private failure: Error | null = null;

  private constructor(
    /** null: an isolated conversation kept in memory only (a delegated sub-agent's). */
    readonly file: string | null,
    readonly jobId: string,
    private readonly now: () => Date,
    private readonly writeBehindMs = 100,
  ) {
    this.prior = file ? readWhole(file) : '';
  }

  static inMemory(jobId: string, now: () => Date = () => new Date()): Conversation {
    return new Conversation(null, jobId, now);
  }

  /** Opens the task's transcript for `jobId`; a torn last line is cut off so appends start on a clean line. */
  static open(
    runtimeDir: string,
    jobId: string,
    now: () => Date = () => new Date(),
    writeBehindMs?: number,
  ): Conversation {
    const file = path.join(runtimeDir, TRANSCRIPT_FILE);
    const text = readWhole(file);
    if (text && !text.endsWith('\n'))
      fs.truncateSync(file, Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1)));
    return new Conversation(file, jobId, now, writeBehindMs);
  }

  get messages(): readonly ChatMessage[] {
    return this.current;
  }

  /** Every earlier line of the file (threads of earlier jobs, or this job's own thread from a previous attempt). */
  priorLines(): TranscriptLine[] {
    return parseTranscript(this.prior);
  }

  /** New thread: [system, user]. */
  seed(system: string, user: string): void {
    this.current = [];
    this.append({ role: 'system', content: system });
    this.append({ role: 'user', content: user });
    this.flush();
  }

  /**
   * Continue: the file becomes one thread — a fresh system message, the replayed turns of every earlier thread, and
   * the new user message — rebuilt atomically (the replayed turns now live in this thread, so none is kept twice).
   */
  seedContinuation(system: string, replayed: readonly ChatMessage[], user: string): void {
    this.prior = '';
    this.rewrite([{ role: 'system', content: system }, ...replayed, { role: 'user', content: user }]);
  }

  /**
   * Continues this job's own latest thread (after an approval or a retry of the same job): returns false when the
   * file holds none. The thread's lines move from `prior` to the current conversation.
   */
  resumeOwnThread(clean: (messages: ChatMessage[]) => ChatMessage[]): boolean {
    const lines = this.priorLines();
    const threads = splitThreads(lines);
    const last = threads.at(-1);
    if (!last || last[0]?.jobId !== this.jobId) return false;
    const before = lines.slice(0, lines.length - last.length);
    this.prior = before.map((l) => `${JSON.stringify(l)}\n`).join('');
    this.current = clean(last.map((l) => l.message));
    this.rewrite(this.current);
    return true;
  }

  /** Appends a message; its line reaches the file within `writeBehindMs`, or at the next flush(). */
  append(message: ChatMessage): void {
    this.current.push(message);
    if (this.file === null) return;
    this.unwritten += this.line(message);
    this.timer ??= setTimeout(this.writeBehind, this.writeBehindMs);
  }

  /** Throws the error of a write behind that failed, so the run stops instead of going on unrecorded. */
  checkWrites(): void {
    const failure = this.failure;
    this.failure = null;
    if (failure) throw failure;
  }

  private readonly writeBehind = () => {
    try {
      this.flush();
    } catch (error) {
      this.failure = error as Error; // the lines stay unwritten: the next flush() tries them again
    }
  };

  /** Writes the lines appended since the last flush, in one write. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.file === null || this.unwritten === '') return;
    if (this.fd === null) {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      this.fd = fs.openSync(this.file, 'a');
    }
    fs.writeSync(this.fd, this.unwritten);
    this.unwritten = '';
    this.failure = null;
  }

  /** Flushes and closes the transcript file; a later flush opens it again. */
  close(): void {
    try {
      this.flush();
    } finally {
      if (this.fd !== null) fs.closeSync(this.fd);
      this.fd = null;
    }
  }

  /** Replaces this job's thread and rebuilds the file atomically (temp + rename): a crash leaves old or new. */
  rewrite(messages: ChatMessage[]): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.fd !== null) fs.closeSync(this.fd); // the rename replaces the file: later writes go to the new one
    this.fd = null;
    this.unwritten = '';
    this.current = [...messages];
    if (this.file === null) return;
    writeFileAtomic(this.file, this.prior + this.current.map((m) => this.line(m)).join(''));
  }

  /** JSON.stringify of a TranscriptLine { ts, jobId, message }, with the message's JSON serialized once. */
  private line(message: ChatMessage): string {
    return `{"ts":"${this.now().toISOString()}","jobId":${JSON.stringify(this.jobId)},"message":${jsonOnce(message)}}\n`;
  }
}

function readWhole(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
