// What an OS notification shows, decided away from Electron so it can be tested: never for the task the person is
// looking at in a focused window (they see it there), never when the person turned OS notifications or that kind off
// in Settings, quiet for a success or with sound off, and for a single pending command the notification shows whole
// the Approve / Deny actions (macOS shows them on the notification) with the request they decide — never when the
// command holds a character the notification would show as an escape or would not show at all.
import { DEFAULT_SETTINGS, type NotificationSettings } from '../../src-shared/settings';
import { renderUntrusted } from '../../src-shared/untrusted-text';
import type { Store } from '../db/store';
import type { Notice } from './attention';

/** What the window shows right now, as the renderer reports it. */
export interface ViewState {
  focused: boolean;
  /** The task open in the task view, or null. */
  viewingTaskId: string | null;
}

export interface DesktopNotice {
  taskId: string;
  title: string;
  body: string;
  silent: boolean;
  /** Present when one tool request waits: the notification can approve it once or deny it. */
  decide?: { requestId: string };
}

export function desktopNotice(
  notice: Notice,
  view: ViewState,
  store: Store,
  prefs: NotificationSettings = DEFAULT_SETTINGS.notifications,
): DesktopNotice | null {
  // `kinds` is keyed by every Notice kind (a new kind without its switch does not compile).
  if (!prefs.os || !prefs.kinds[notice.kind]) return null;
  if (hiddenByView(view, notice.taskId)) return null;
  const shown: DesktopNotice = {
    taskId: notice.taskId,
    title: notice.title,
    body: notice.body,
    silent: notice.kind === 'succeeded' || !prefs.sound,
  };
  if (notice.kind !== 'tool_request') return shown;
  const pending = store.toolRequests.listForJob(notice.jobId).filter((r) => r.status === 'pending');
  // With several requests a yes/no on the notification would be ambiguous, and one whose command the notification
  // cannot show whole would be approved unseen: the person decides in the window.
  const [only] = pending;
  return pending.length === 1 && only && shownWhole(only, notice.body)
    ? { ...shown, decide: { requestId: only.id } }
    : shown;
}

/** The person is looking at the task in a focused window: they see it there, no notification. */
export const hiddenByView = (view: ViewState, taskId: string): boolean => view.focused && view.viewingTaskId === taskId;

/**
 * A run_command request whose command the notification's body shows whole and as it is: one line, not cut, with no
 * character the untrusted-text renderer escapes (a bidi override, a zero-width space, a look-alike space).
 */
function shownWhole(request: { tool: string; args: unknown }, body: string): boolean {
  const command = (request.args as { command?: unknown } | null)?.command;
  if (request.tool !== 'run_command' || typeof command !== 'string') return false;
  if (renderUntrusted(command, { mode: 'command', multiline: false }).hidden > 0) return false;
  return body.includes(command.trim()) && !body.endsWith('…');
}

/** The renderer's report of what it shows; anything else is refused (it crosses from the renderer). */
export function parseViewingTask(input: unknown): string | null | undefined {
  if (input === null) return null;
  return typeof input === 'string' && input.length > 0 && input.length <= 200 ? input : undefined;
}
