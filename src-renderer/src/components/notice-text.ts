// A system comment in the person's language: from its notice (a code with parameters) when it has one, else its body
// as the main process wrote it. Whether the body's technical detail is worth showing under it (folded).
import { assertNever } from '../../../src-shared/assert-never';
import type { Comment } from '../../../src-shared/entities';
import type { Translate } from '../i18n/translate';

export function noticeText(t: Translate, comment: Pick<Comment, 'body' | 'notice'>): string {
  const notice = comment.notice;
  if (!notice) return comment.body;
  switch (notice.code) {
    case 'cancelled':
      return notice.subtasks > 0
        ? t('notice.cancelledWithSubtasks', { count: notice.subtasks })
        : t('notice.cancelled');
    case 'browser_step':
      return t('notice.browserStep', { instruction: notice.instruction, url: notice.url });
    case 'mcp_auth':
      return t('notice.mcpAuth', { server: notice.server });
    case 'mcp_warning':
      return t('notice.mcpWarning', { server: notice.server });
    case 'checkpoints_off':
      return t(`notice.checkpointsOff.${notice.reason}`);
    case 'checkpoint_missed':
      return t(`notice.checkpointMissed.${notice.reason}`);
    case 'workspace_commit':
      return notice.hash !== null
        ? t('notice.workspaceCommitted', { hash: notice.hash, count: notice.files })
        : t('notice.workspaceCommitSkipped');
    case 'continued':
      return t('notice.continued');
    default:
      return assertNever(notice, 'comment notice');
  }
}

/** Notices whose English body holds a detail the words do not (what the server printed, why it stopped). */
export const noticeHasDetail = (comment: Pick<Comment, 'notice'>): boolean =>
  comment.notice?.code === 'mcp_warning' ||
  comment.notice?.code === 'checkpoint_missed' ||
  (comment.notice?.code === 'workspace_commit' && comment.notice.hash === null);
