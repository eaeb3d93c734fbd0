// The Conversation of a job and its task's transcript (transcripts.ts: runs/{taskId}/transcript.jsonl, or the shared
// database's rows): one JSON line per message, threads begin at a system line. Turns are appended and written through
// (stored before append returns); rewrite() replaces the text atomically. Earlier jobs' threads are kept.
import type { ChatMessage } from '../llm/types';
import { fileTranscript, type TaskTranscript, TRANSCRIPT_FILE } from './transcripts';

export type { ChatMessage };
export { TRANSCRIPT_FILE };

export interface TranscriptLine {
  ts: string;
  jobId: string;
  message: ChatMessage;
}

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
  /** The transcript's text before this job's thread: earlier jobs' threads, kept by rewrite(). */
  private prior: string;
  /** The lines of the step being recorded (asOneStep), written when it ends; null outside a step. */
  private step: string | null = null;

  private constructor(
    /** null: an isolated conversation kept in memory only (a delegated sub-agent's). */
    readonly transcript: TaskTranscript | null,
    readonly jobId: string,
    private readonly now: () => Date,
  ) {
    this.prior = transcript ? transcript.read() : '';
  }

  static inMemory(jobId: string, now: () => Date = () => new Date()): Conversation {
    return new Conversation(null, jobId, now);
  }

  /**
   * Opens the task's transcript for `jobId` (a runtime dir: its file there); a torn last line is cut off so appends
   * start on a clean line.
   */
  static open(where: string | TaskTranscript, jobId: string, now: () => Date = () => new Date()): Conversation {
    const transcript = typeof where === 'string' ? fileTranscript(where) : where;
    transcript.mendTornEnd();
    return new Conversation(transcript, jobId, now);
  }

  get messages(): readonly ChatMessage[] {
    return this.current;
  }

  /** Every earlier line of the transcript (earlier jobs' threads, or this job's own thread from a previous attempt). */
  priorLines(): TranscriptLine[] {
    return parseTranscript(this.prior);
  }

  /** New thread: [system, user]. */
  seed(system: string, user: string): void {
    this.current = [];
    this.append({ role: 'system', content: system }, { role: 'user', content: user });
  }

  /**
   * Continue: the transcript becomes one thread — a fresh system message, the replayed turns of every earlier thread,
   * and the new user message — rebuilt atomically (the replayed turns now live in this thread, so none is kept twice).
   */
  seedContinuation(system: string, replayed: readonly ChatMessage[], user: string): void {
    this.prior = '';
    this.rewrite([{ role: 'system', content: system }, ...replayed, { role: 'user', content: user }]);
  }

  /**
   * Continues this job's own latest thread (after an approval or a retry of the same job): returns false when the
   * transcript holds none. The thread's lines move from `prior` to the current conversation.
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

  /** Appends messages; their lines are written, in one write, before it returns (a failed write throws). */
  append(...messages: ChatMessage[]): void {
    this.current.push(...messages);
    if (this.transcript === null) return;
    const lines = messages.map((m) => this.line(m)).join('');
    if (this.step !== null) this.step += lines;
    else this.write(lines);
  }

  /** Runs `record`; what it appends is written in one write when it returns (one step, one append). */
  asOneStep<T>(record: () => T): T {
    if (this.step !== null) return record();
    this.step = '';
    try {
      const result = record();
      this.write(this.step);
      return result;
    } finally {
      this.step = null;
    }
  }

  private write(lines: string): void {
    if (this.transcript === null || lines === '') return;
    this.transcript.append(lines);
  }

  /** Lets go of the transcript's file; a later append opens it again. */
  close(): void {
    this.transcript?.close();
  }

  /** Replaces this job's thread and rebuilds the transcript atomically: a crash leaves old or new. */
  rewrite(messages: ChatMessage[]): void {
    this.current = [...messages];
    this.transcript?.replace(this.prior + this.current.map((m) => this.line(m)).join(''));
  }

  private line(message: ChatMessage): string {
    const line: TranscriptLine = { ts: this.now().toISOString(), jobId: this.jobId, message };
    return `${JSON.stringify(line)}\n`;
  }
}
