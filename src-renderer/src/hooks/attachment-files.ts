// Turning a File the user picked, dropped or pasted into an attachment for createTask: checked with the shared rules
// (src-shared/attachments.ts) before it is read, typed (text the browser left untyped or mistyped is sent as
// text/plain), read as base64, and given a data: URL preview when it is an image (the CSP allows data:, not blob:).
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENTS_MAX_COUNT,
  ATTACHMENTS_TOTAL_MAX_BYTES,
  type AttachmentMeta,
  type AttachmentProblem,
  attachmentProblem,
  formatBytes,
  isAttachmentMediaType,
  isImageMediaType,
  looksLikeText,
} from '../../../src-shared/attachments';
import type { Translate } from '../i18n';

export interface PendingAttachment extends AttachmentMeta {
  /** Stable key for the list; names can repeat across removals. */
  id: number;
  /** Base64 of the file's bytes, as createTask takes it. */
  data: string;
  /** A data: URL for an image's thumbnail; null for text. */
  preview: string | null;
}

export type AddProblem = AttachmentProblem | { kind: 'unreadable'; name: string };
export type AddOutcome = { ok: true; attachment: PendingAttachment } | { ok: false; problem: AddProblem };

/** How much of an untyped file is read to tell text from binary. */
const SNIFF_BYTES = 64 * 1024;
const BASE64_CHUNK = 0x8000;

let nextId = 1;

/** Checks, types and reads one file to go after `before`; `name` may differ from the file's (a pasted image). */
export async function readAttachment(file: Blob, name: string, before: readonly AttachmentMeta[]): Promise<AddOutcome> {
  const declared = isAttachmentMediaType(file.type) ? file.type : null;
  // Name, count, duplicate and size first, from what the File says, so a 2 GB video is refused without reading it.
  const early = attachmentProblem({ name, mediaType: declared ?? 'text/plain', bytes: file.size }, before);
  if (early) return { ok: false, problem: early };
  try {
    let mediaType = declared;
    if (!mediaType) {
      const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
      if (!looksLikeText(head, file.size > SNIFF_BYTES)) {
        return { ok: false, problem: { kind: 'type', name, mediaType: file.type } };
      }
      mediaType = 'text/plain';
    }
    const data = await readBase64(file);
    const preview = isImageMediaType(mediaType) ? `data:${mediaType};base64,${data}` : null;
    return { ok: true, attachment: { id: nextId++, name, mediaType, bytes: file.size, data, preview } };
  } catch {
    return { ok: false, problem: { kind: 'unreadable', name } };
  }
}

async function readBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  // btoa takes a binary string; built in chunks, as spreading 10 MiB into one call overflows the stack.
  let binary = '';
  for (let i = 0; i < bytes.length; i += BASE64_CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(i, i + BASE64_CHUNK));
  }
  return btoa(binary);
}

/**
 * A name no attached file has (case-insensitively): "image.png", then "image (2).png". For pasted images, which the
 * clipboard names alike every time; a picked or dropped file keeps its name and a clash is the user's to see.
 */
export function uniqueName(name: string, taken: readonly string[]): string {
  const lower = new Set(taken.map((n) => n.toLowerCase()));
  if (!lower.has(name.toLowerCase())) return name;
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 2; ; n++) {
    const candidate = `${stem} (${n})${ext}`;
    if (!lower.has(candidate.toLowerCase())) return candidate;
  }
}

/** The message for a refused file, in the UI language; it always names the file. */
export function attachmentProblemText(problem: AddProblem, t: Translate): string {
  const { name } = problem;
  switch (problem.kind) {
    case 'name':
      return t('attach.error.name', { name });
    case 'type':
      return t('attach.error.type', { name });
    case 'too_large':
      return t('attach.error.too_large', {
        name,
        size: formatBytes(problem.bytes, true),
        max: formatBytes(ATTACHMENT_MAX_BYTES),
      });
    case 'total_too_large':
      return t('attach.error.total_too_large', {
        name,
        size: formatBytes(problem.totalBytes, true),
        max: formatBytes(ATTACHMENTS_TOTAL_MAX_BYTES),
      });
    case 'duplicate':
      return t('attach.error.duplicate', { name });
    case 'too_many':
      return t('attach.error.too_many', { name, max: ATTACHMENTS_MAX_COUNT });
    case 'unreadable':
      return t('attach.error.unreadable', { name });
    default: {
      const never: never = problem;
      return never;
    }
  }
}
