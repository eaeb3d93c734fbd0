// Reading a file for createTask: the shared limits refuse before reading, untyped text becomes text/plain, binary
// without an allowed type is refused, images get a data: preview, and pasted images get names that do not clash.
import { describe, expect, it } from 'vitest';
import { ATTACHMENT_MAX_BYTES } from '../../../src-shared/attachments';
import { readAttachment, uniqueName } from './attachment-files';

describe('readAttachment', () => {
  it('reads a typed text file as base64 with no preview', async () => {
    const outcome = await readAttachment(new Blob(['héllo\n'], { type: 'text/markdown' }), 'notes.md', []);
    expect(outcome).toMatchObject({
      ok: true,
      attachment: { name: 'notes.md', mediaType: 'text/markdown', bytes: 7, preview: null },
    });
    const bytes = outcome.ok ? Uint8Array.from(atob(outcome.attachment.data), (c) => c.charCodeAt(0)) : null;
    expect(new TextDecoder().decode(bytes ?? new Uint8Array())).toBe('héllo\n');
  });

  it('sends text the browser mistyped (a .ts file is "video/mp2t") as text/plain', async () => {
    const outcome = await readAttachment(new Blob(['export const x = 1;\n'], { type: 'video/mp2t' }), 'x.ts', []);
    expect(outcome.ok && outcome.attachment.mediaType).toBe('text/plain');
  });

  it('refuses a binary file without an allowed type, naming it', async () => {
    const pdf = new Blob([new Uint8Array([0x25, 0x50, 0x44, 0x46, 0, 1, 2])], { type: 'application/pdf' });
    expect(await readAttachment(pdf, 'doc.pdf', [])).toEqual({
      ok: false,
      problem: { kind: 'type', name: 'doc.pdf', mediaType: 'application/pdf' },
    });
  });

  it('gives an image a data: URL preview of its own bytes', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const outcome = await readAttachment(new Blob([png], { type: 'image/png' }), 'shot.png', []);
    expect(outcome.ok && outcome.attachment.preview).toBe(`data:image/png;base64,${btoa(String.fromCharCode(...png))}`);
  });

  it('refuses a file over 10 MiB and a duplicate name from their metadata, before reading', async () => {
    const big = new Blob([new Uint8Array(ATTACHMENT_MAX_BYTES + 1)], { type: 'text/plain' });
    expect(await readAttachment(big, 'big.txt', [])).toMatchObject({ ok: false, problem: { kind: 'too_large' } });
    const before = [{ name: 'A.txt', mediaType: 'text/plain', bytes: 1 }];
    expect(await readAttachment(new Blob(['x'], { type: 'text/plain' }), 'a.txt', before)).toMatchObject({
      ok: false,
      problem: { kind: 'duplicate', name: 'a.txt' },
    });
  });
});

describe('uniqueName', () => {
  it('keeps a free name and numbers a taken one before its extension', () => {
    expect(uniqueName('image.png', [])).toBe('image.png');
    expect(uniqueName('image.png', ['Image.PNG'])).toBe('image (2).png');
    expect(uniqueName('image.png', ['image.png', 'image (2).png'])).toBe('image (3).png');
    expect(uniqueName('README', ['readme'])).toBe('README (2)');
  });
});
