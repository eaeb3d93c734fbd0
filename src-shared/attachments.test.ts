// The attachment rules shared by the dialog and the backend: limits at and just past their edges, names, types,
// duplicates, the list check the contract runs, and the text sniffing the dialog uses for untyped files.
import { describe, expect, it } from 'vitest';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENTS_MAX_COUNT,
  ATTACHMENTS_TOTAL_MAX_BYTES,
  type AttachmentMeta,
  attachmentListProblem,
  attachmentNameProblem,
  attachmentProblem,
  base64Bytes,
  describeAttachmentProblem,
  formatBytes,
  looksLikeText,
  MIB,
} from './attachments';
import { contract } from './contract';

const file = (name: string, bytes: number, mediaType = 'text/plain'): AttachmentMeta => ({ name, mediaType, bytes });

describe('attachmentProblem', () => {
  it('accepts a file of exactly 10 MiB and refuses one byte more, naming the file', () => {
    expect(attachmentProblem(file('a.txt', ATTACHMENT_MAX_BYTES), [])).toBeNull();
    expect(attachmentProblem(file('big.txt', ATTACHMENT_MAX_BYTES + 1), [])).toEqual({
      kind: 'too_large',
      name: 'big.txt',
      bytes: ATTACHMENT_MAX_BYTES + 1,
    });
  });

  it('accepts up to 25 MiB in all and refuses the file that goes past it', () => {
    const before = [file('a.txt', 10 * MIB), file('b.txt', 10 * MIB)];
    expect(attachmentProblem(file('c.txt', 5 * MIB), before)).toBeNull();
    expect(attachmentProblem(file('c.txt', 5 * MIB + 1), before)).toEqual({
      kind: 'total_too_large',
      name: 'c.txt',
      totalBytes: ATTACHMENTS_TOTAL_MAX_BYTES + 1,
    });
  });

  it('takes text of any kind, JSON and png/jpeg/gif/webp images, and nothing else', () => {
    for (const type of [
      'text/plain',
      'text/markdown',
      'text/x-python',
      'application/json',
      'image/png',
      'image/webp',
    ]) {
      expect(attachmentProblem(file('f', 1, type), []), type).toBeNull();
    }
    for (const type of ['', 'image/svg+xml', 'application/pdf', 'application/octet-stream', 'video/mp2t']) {
      expect(attachmentProblem(file('f', 1, type), [])?.kind, type).toBe('type');
    }
  });

  it('refuses a second file whose name differs only in case', () => {
    expect(attachmentProblem(file('read.md', 1), [file('READ.md', 1)])).toEqual({ kind: 'duplicate', name: 'read.md' });
  });

  it('refuses a file past the count limit', () => {
    const before = Array.from({ length: ATTACHMENTS_MAX_COUNT }, (_, i) => file(`f${i}.txt`, 1));
    expect(attachmentProblem(file('one-more.txt', 1), before)?.kind).toBe('too_many');
    expect(attachmentProblem(file('last.txt', 1), before.slice(1))).toBeNull();
  });

  it('refuses names that are paths, dots, control characters or too long', () => {
    expect(attachmentNameProblem('notes.txt')).toBeNull();
    expect(attachmentNameProblem('日本語 メモ.md')).toBeNull();
    for (const name of ['../x', 'a/b', 'a\\b', '.', '..', '', 'a\u0000b', 'a\nb', 'x'.repeat(256)]) {
      expect(attachmentNameProblem(name), JSON.stringify(name)).not.toBeNull();
    }
  });
});

describe('attachmentListProblem and the contract', () => {
  it('finds the first file that breaks a rule, with its index', () => {
    const list = [file('a.txt', 9 * MIB), file('b.txt', 9 * MIB), file('c.txt', 9 * MIB), file('d.exe', 1, 'x/y')];
    expect(attachmentListProblem(list)).toEqual({
      index: 2,
      problem: { kind: 'total_too_large', name: 'c.txt', totalBytes: 27 * MIB },
    });
    expect(attachmentListProblem(list.slice(0, 2))).toBeNull();
  });

  it('P10.09 createTask input is refused at the offending attachment with a message naming the file', () => {
    const data = (bytes: number) => btoa('\0'.repeat(bytes));
    const parsed = contract.createTask.input.safeParse({
      instruction: 'x',
      attachments: [
        { name: 'ok.txt', mediaType: 'text/plain', data: data(3) },
        { name: 'big.log', mediaType: 'text/plain', data: data(ATTACHMENT_MAX_BYTES + 3) },
      ],
    });
    expect(parsed.success).toBe(false);
    const issue = parsed.error?.issues[0];
    expect(issue?.path).toEqual(['attachments', 1]);
    expect(issue?.message).toBe('big.log: 10.1 MiB is more than 10 MiB');
  });

  it('describes every problem with the file name first', () => {
    const problems = [
      { kind: 'name', name: 'a/b', detail: 'must be a plain file name' },
      { kind: 'type', name: 'x.pdf', mediaType: 'application/pdf' },
      { kind: 'too_large', name: 'big.txt', bytes: 11 * MIB },
      { kind: 'total_too_large', name: 'c.txt', totalBytes: 26 * MIB },
      { kind: 'duplicate', name: 'a.txt' },
      { kind: 'too_many', name: 'z.txt' },
    ] as const;
    for (const p of problems)
      expect(describeAttachmentProblem(p)).toMatch(new RegExp(`^${p.name.replace('.', '\\.')}: `));
    expect(describeAttachmentProblem(problems[2])).toBe('big.txt: 11 MiB is more than 10 MiB');
  });
});

describe('sizes', () => {
  it('base64Bytes is the decoded length', () => {
    for (const n of [0, 1, 2, 3, 4, 5, 100]) expect(base64Bytes(btoa('x'.repeat(n)))).toBe(n);
  });

  it('formatBytes reads like a file manager', () => {
    expect(formatBytes(1)).toBe('1 B');
    expect(formatBytes(900)).toBe('900 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(10 * MIB)).toBe('10 MiB');
    expect(formatBytes(10 * MIB + 200_000)).toBe('10.2 MiB');
    expect(formatBytes(10 * MIB + 3)).toBe('10 MiB');
    expect(formatBytes(10 * MIB + 3, true)).toBe('10.1 MiB');
    expect(formatBytes(10 * MIB, true)).toBe('10 MiB');
  });
});

describe('looksLikeText', () => {
  const bytes = (s: string) => new TextEncoder().encode(s);

  it('is true for UTF-8 text, false with a NUL byte or invalid UTF-8', () => {
    expect(looksLikeText(bytes('export const x: number = 1;\n'))).toBe(true);
    expect(looksLikeText(bytes('日本語のテキスト'))).toBe(true);
    expect(looksLikeText(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe(false);
    expect(looksLikeText(new Uint8Array([0x41, 0xff, 0x42]))).toBe(false);
  });

  it('tolerates a character cut at the end of a prefix only when told it is a prefix', () => {
    const cut = bytes('テキスト').subarray(0, 7); // the third character's first byte only
    expect(looksLikeText(cut, true)).toBe(true);
    expect(looksLikeText(cut, false)).toBe(false);
  });
});
