// Splits inline `<think>…</think>` reasoning out of streamed content, a tag possibly cut across chunks.

export interface ContentPiece {
  type: 'text' | 'reasoning';
  text: string;
}

const OPEN = '<think>';
const CLOSE = '</think>';

/**
 * A `<think>` block counts only where an answer may begin: at the start of the content or right after a closed block
 * (a model quoting the tag inside its answer is left alone). The whitespace between `</think>` and the answer is
 * dropped; the content of a reply without any block comes out unchanged.
 */
export class ThinkTagSplitter {
  private state: 'start' | 'reasoning' | 'after' | 'text' = 'start';
  private pending = '';

  feed(chunk: string): ContentPiece[] {
    this.pending += chunk;
    const out: ContentPiece[] = [];
    for (;;) {
      switch (this.state) {
        case 'start':
        case 'after': {
          const rest = this.pending.trimStart();
          if (rest.startsWith(OPEN)) {
            this.state = 'reasoning';
            this.pending = rest.slice(OPEN.length);
            continue;
          }
          if (OPEN.startsWith(rest)) {
            if (this.state === 'after') this.pending = rest;
            return out; // nothing yet, or a tag still arriving
          }
          if (this.state === 'after') this.pending = rest;
          this.state = 'text';
          continue;
        }
        case 'reasoning': {
          const end = this.pending.indexOf(CLOSE);
          if (end >= 0) {
            push(out, 'reasoning', this.pending.slice(0, end));
            this.pending = this.pending.slice(end + CLOSE.length);
            this.state = 'after';
            continue;
          }
          const keep = partialSuffix(this.pending, CLOSE);
          push(out, 'reasoning', this.pending.slice(0, this.pending.length - keep));
          this.pending = this.pending.slice(this.pending.length - keep);
          return out;
        }
        case 'text':
          push(out, 'text', this.pending);
          this.pending = '';
          return out;
        default: {
          const never: never = this.state;
          throw new Error(`unknown state ${String(never)}`);
        }
      }
    }
  }

  /** What is still held back when the stream ends: an unclosed block stays reasoning. */
  flush(): ContentPiece[] {
    const out: ContentPiece[] = [];
    push(out, this.state === 'reasoning' ? 'reasoning' : 'text', this.pending);
    this.pending = '';
    return out;
  }
}

function push(out: ContentPiece[], type: ContentPiece['type'], text: string): void {
  if (text) out.push({ type, text });
}

/** Length of the longest end of `text` that begins `tag`. */
function partialSuffix(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (tag.startsWith(text.slice(text.length - n))) return n;
  }
  return 0;
}
