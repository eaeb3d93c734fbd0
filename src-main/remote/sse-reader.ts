// Reads a Server-Sent Events body as the bridge writes it (src-main/bridge/sse.ts): `id:`, `event:` and `data:` lines,
// comments (keepalives) skipped, one message per blank line. Main's client of a remote host uses it; a browser has
// EventSource for the same.
export interface SseMessage {
  /** The `id:` of the message; undefined when it had none (the bridge's transient events). */
  id?: string;
  /** `message` unless an `event:` line named another (the bridge's `error` when a caller is revoked). */
  event: string;
  data: string;
}

export class SseReader {
  private buffer = '';
  private id: string | undefined;
  private event = 'message';
  private data: string[] = [];

  constructor(private readonly onMessage: (message: SseMessage) => void) {}

  push(chunk: string): void {
    this.buffer += chunk;
    let cut = this.buffer.search(/\r\n|\r|\n/);
    // A CR that ends the chunk may be the first half of a CRLF: it waits for the next chunk.
    while (cut >= 0 && !(cut === this.buffer.length - 1 && this.buffer.endsWith('\r'))) {
      const line = this.buffer.slice(0, cut);
      const breakLength = this.buffer.startsWith('\r\n', cut) ? 2 : 1;
      this.buffer = this.buffer.slice(cut + breakLength);
      this.line(line);
      cut = this.buffer.search(/\r\n|\r|\n/);
    }
  }

  private line(line: string): void {
    if (line === '') {
      // An id alone (the bridge's starting point) is passed on with no data: it moves the resume point.
      if (this.data.length > 0 || this.id !== undefined) {
        this.onMessage({ id: this.id, event: this.event, data: this.data.join('\n') });
      }
      this.id = undefined;
      this.event = 'message';
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') this.data.push(value);
    else if (field === 'id') this.id = value;
    else if (field === 'event') this.event = value;
  }
}
