// A system comment in the person's language: from its notice (a code with parameters) when it has one, else its body
// as the main process wrote it.
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
    default:
      return assertNever(notice, 'comment notice');
  }
}
