// The rules for a task's attachments, defined once: the contract's schema, createTask in main and the CreateTaskDialog
// all check a file with these, so the dialog refuses exactly what the backend would (bridge-api.md: text and images,
// each ≤ 10 MiB, ≤ 25 MiB in all). Free of zod and of Node, so the renderer can run it too.

export const MIB = 1024 * 1024;
export const ATTACHMENT_MAX_BYTES = 10 * MIB;
export const ATTACHMENTS_TOTAL_MAX_BYTES = 25 * MIB;
export const ATTACHMENTS_MAX_COUNT = 20;
export const ATTACHMENT_NAME_MAX_CHARS = 255;

/** Text of any kind, JSON, and the image formats every model API and browser can show. */
export const ATTACHMENT_MEDIA_TYPE = /^(text\/[\w.+-]+|image\/(png|jpeg|gif|webp)|application\/json)$/;

export const isAttachmentMediaType = (mediaType: string): boolean => ATTACHMENT_MEDIA_TYPE.test(mediaType);
export const isImageMediaType = (mediaType: string): boolean => mediaType.startsWith('image/');

/** Decoded size of a base64 string, without decoding it. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

/** What is wrong with a file name, or null: it becomes a file in the task's runtime dir, so it must stay one. */
export function attachmentNameProblem(name: string): string | null {
  if (name.length === 0) return 'must not be empty';
  if (name.length > ATTACHMENT_NAME_MAX_CHARS) return `must be at most ${ATTACHMENT_NAME_MAX_CHARS} characters`;
  if (/[\\/]/.test(name) || name === '.' || name === '..') return 'must be a plain file name';
  if ([...name].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) {
    return 'must not contain control characters';
  }
  return null;
}

/** One attachment as the rules see it: its size in bytes, not its data. */
export interface AttachmentMeta {
  name: string;
  mediaType: string;
  bytes: number;
}

/** Why a file cannot be attached; `name` is the file's, so every message can say which file it is about. */
export type AttachmentProblem =
  | { kind: 'name'; name: string; detail: string }
  | { kind: 'type'; name: string; mediaType: string }
  | { kind: 'too_large'; name: string; bytes: number }
  | { kind: 'total_too_large'; name: string; totalBytes: number }
  | { kind: 'duplicate'; name: string }
  | { kind: 'too_many'; name: string };

/** Names that differ only in case collide: on macOS and Windows the second file would overwrite the first. */
const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The first rule `file` breaks when added after `before` (already accepted), or null. */
export function attachmentProblem(file: AttachmentMeta, before: readonly AttachmentMeta[]): AttachmentProblem | null {
  const { name } = file;
  const nameDetail = attachmentNameProblem(name);
  if (nameDetail) return { kind: 'name', name, detail: nameDetail };
  if (before.length >= ATTACHMENTS_MAX_COUNT) return { kind: 'too_many', name };
  if (before.some((b) => sameName(b.name, name))) return { kind: 'duplicate', name };
  if (!isAttachmentMediaType(file.mediaType)) return { kind: 'type', name, mediaType: file.mediaType };
  if (file.bytes > ATTACHMENT_MAX_BYTES) return { kind: 'too_large', name, bytes: file.bytes };
  const totalBytes = before.reduce((sum, b) => sum + b.bytes, file.bytes);
  if (totalBytes > ATTACHMENTS_TOTAL_MAX_BYTES) return { kind: 'total_too_large', name, totalBytes };
  return null;
}

/** The first problem of a whole list, checked in order, with the index of the file it is about. */
export function attachmentListProblem(
  files: readonly AttachmentMeta[],
): { index: number; problem: AttachmentProblem } | null {
  for (const [index, file] of files.entries()) {
    const problem = attachmentProblem(file, files.slice(0, index));
    if (problem) return { index, problem };
  }
  return null;
}

/**
 * "10 MiB", "1.5 KiB", "12 B": unit symbols, the same in every UI language. `up` rounds up, for a size over a limit:
 * 10 MiB + 3 bytes must not read as "10 MiB".
 */
export function formatBytes(bytes: number, up = false): string {
  if (bytes < 1024) return `${bytes} B`;
  const [value, unit] = bytes < MIB ? [bytes / 1024, 'KiB'] : [bytes / MIB, 'MiB'];
  const tenths = (up ? Math.ceil(value * 10) : Math.round(value * 10)) / 10;
  return `${tenths} ${unit}`;
}

/** The backend's English message for a problem (the dialog shows its own translated text). */
export function describeAttachmentProblem(problem: AttachmentProblem): string {
  const { name } = problem;
  switch (problem.kind) {
    case 'name':
      return `${name}: the name ${problem.detail}`;
    case 'type':
      return `${name}: ${problem.mediaType || 'an unknown type'} is neither text nor an image (png, jpeg, gif, webp)`;
    case 'too_large':
      return `${name}: ${formatBytes(problem.bytes, true)} is more than ${formatBytes(ATTACHMENT_MAX_BYTES)}`;
    case 'total_too_large':
      return `${name}: the attachments would come to ${formatBytes(problem.totalBytes, true)}, more than ${formatBytes(ATTACHMENTS_TOTAL_MAX_BYTES)} in all`;
    case 'duplicate':
      return `${name}: another attachment has this name`;
    case 'too_many':
      return `${name}: at most ${ATTACHMENTS_MAX_COUNT} files can be attached`;
    default: {
      const never: never = problem;
      return never;
    }
  }
}

/**
 * True when `bytes` (a file's start) read as text: UTF-8 without NUL bytes. Browsers give many text files no type
 * or a wrong one (`.ts` is "video/mp2t"), so the dialog sends those as text/plain when their content is text.
 * `cut` says the bytes are a prefix, so a character split at the end is not an error.
 */
export function looksLikeText(bytes: Uint8Array, cut = false): boolean {
  if (bytes.includes(0)) return false;
  // A prefix may end inside a multi-byte character: drop up to 3 trailing continuation/lead bytes before decoding.
  let end = bytes.length;
  if (cut) {
    let back = 0;
    while (back < 3 && end > 0 && ((bytes[end - 1] as number) & 0xc0) === 0x80) {
      end -= 1;
      back += 1;
    }
    if (end > 0 && ((bytes[end - 1] as number) & 0xc0) === 0xc0) end -= 1;
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, end));
    return true;
  } catch {
    return false;
  }
}
