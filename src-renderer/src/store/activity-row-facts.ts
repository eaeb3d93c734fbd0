// What each kind of activity event says in its row: its group, whether it is a failure, its title, detail and status,
// in the reader's language. One function per group of events (jobs, LLM calls, tools, approvals, the rest).
import { ruleLabel } from '../../../src-shared/auto-prompter';
import { JOB_STATUSES, type JobStatus } from '../../../src-shared/entities';
import type { Translate } from '../i18n/translate';
import type { ActivityEvent } from './activity';
import { jobDetail, llmDetail } from './activity-format';
import type { ActivityRow } from './activity-rows';

export interface LlmCallFacts {
  llmCallCount: number;
  attempt: number;
  outcome: string;
  latencyMs: number;
  ttftMs: number | null;
  promptTokens: number;
  cachedPromptTokens: number;
  completionTokens: number;
}

export type RowFacts = Pick<ActivityRow, 'kind' | 'error' | 'title' | 'detail' | 'status'> & { llm?: LlmCallFacts };

type EventOf<T extends ActivityEvent['type']> = Extract<ActivityEvent, { type: T }>;
type JobEvent = EventOf<'task.created' | 'job.changed' | 'movement.entered' | 'job.metrics' | 'task.routed'>;
type LlmEvent = EventOf<'InvokeStart' | 'LlmCallEnd' | 'prompt.guarded'>;
type ToolEvent = EventOf<'tool.finished' | 'policy.fired'>;
type ApprovalEvent = EventOf<'tool_request.changed' | 'package_request.changed'>;

export function rowFacts(event: ActivityEvent, t: Translate): RowFacts {
  switch (event.type) {
    case 'task.created':
    case 'job.changed':
    case 'movement.entered':
    case 'job.metrics':
    case 'task.routed':
      return jobFacts(event, t);
    case 'InvokeStart':
    case 'LlmCallEnd':
    case 'prompt.guarded':
      return llmFacts(event, t);
    case 'tool.finished':
    case 'policy.fired':
      return toolFacts(event, t);
    case 'tool_request.changed':
    case 'package_request.changed':
      return approvalFacts(event, t);
    case 'comment.created': {
      const { comment } = event;
      return {
        kind: 'comment',
        error: comment.kind === 'error',
        title: `${t(`chat.author.${comment.author}`)} · ${t(`chat.kind.${comment.kind}`)}`,
        detail: comment.body,
        status: comment.kind,
      };
    }
    case 'settings.changed':
      return {
        kind: 'notification',
        error: false,
        title: t('activity.settingsChanged', { file: event.file }),
        detail: t(event.inForce === 'accepted' ? 'activity.settingsAccepted' : 'activity.settingsDefault'),
        status: event.inForce,
      };
    case 'lesson.changed':
      return {
        kind: 'approval',
        error: false,
        title: t(`activity.lesson.${event.lesson.status}`),
        detail: event.lesson.text,
        status: event.lesson.status,
      };
    case 'webhook.failed':
      return {
        kind: 'notification',
        error: true,
        title: t('activity.webhookFailed', { webhook: event.webhook, event: event.event }),
        detail: t('activity.webhookFailedDetail', { reason: event.reason, attempts: event.attempts }),
        status: 'failed',
      };
    default: {
      const unknown: never = event;
      throw new Error(`unhandled activity event ${JSON.stringify(unknown)}`);
    }
  }
}

function jobFacts(event: JobEvent, t: Translate): RowFacts {
  switch (event.type) {
    case 'task.created':
      return { kind: 'job', error: false, title: t('activity.taskCreated'), detail: event.task.title, status: null };
    case 'job.changed': {
      const { job } = event;
      return {
        kind: 'job',
        error: job.status === 'failed' || (job.status === 'retry' && job.error !== null),
        title:
          job.kind === 'reflection'
            ? t('activity.reflection', { status: t(`activity.status.${job.status}`) })
            : t(`activity.status.${job.status}`),
        detail: jobDetail(job, t),
        status: job.status,
      };
    }
    case 'movement.entered':
      return {
        kind: 'job',
        error: false,
        title: t('activity.movement', { movement: event.movement }),
        detail: null,
        status: null,
      };
    case 'job.metrics':
      return {
        kind: 'job',
        error: false,
        title: t('activity.jobMetrics', {
          status: isJobStatus(event.status) ? t(`status.${event.status}`) : event.status,
          seconds: (event.durationMs / 1000).toFixed(1),
        }),
        detail: t('activity.jobMetricsDetail', {
          attempt: event.attempt,
          calls: event.usage.llmCalls,
          prompt: event.usage.promptTokens,
          cached: event.usage.cachedPromptTokens,
          completion: event.usage.completionTokens,
        }),
        status: event.status,
      };
    case 'task.routed':
      return {
        kind: 'job',
        error: false,
        title: t(event.routed ? 'activity.routed' : 'activity.routedDefault', { piece: event.pieceId }),
        detail: event.warning,
        status: event.routed ? 'routed' : 'default',
      };
    default: {
      const unknown: never = event;
      throw new Error(`unhandled job event ${JSON.stringify(unknown)}`);
    }
  }
}

function llmFacts(event: LlmEvent, t: Translate): RowFacts {
  switch (event.type) {
    case 'InvokeStart':
      return {
        kind: 'llm',
        error: false,
        title: t('activity.invoke', { kind: event.kind }),
        detail: null,
        status: null,
      };
    case 'LlmCallEnd': {
      const llm: LlmCallFacts = {
        llmCallCount: event.llmCallCount,
        attempt: event.attempt,
        outcome: event.outcome,
        latencyMs: event.latencyMs,
        ttftMs: event.ttftMs,
        promptTokens: event.usage.promptTokens,
        cachedPromptTokens: event.cachedPromptTokens,
        completionTokens: event.usage.completionTokens,
      };
      return {
        kind: 'llm',
        error: event.outcome !== 'ok',
        title: t('activity.llmCall', { n: event.llmCallCount }),
        detail: llmDetail(llm, t),
        status: event.outcome,
        llm,
      };
    }
    case 'prompt.guarded':
      return {
        kind: 'llm',
        error: event.outcome === 'overflow',
        title: t('activity.guard', { outcome: event.outcome }),
        detail: t('activity.guardDetail', {
          steps: event.steps.join(', ') || t('activity.guardNoSteps'),
          before: event.tokensBefore,
          after: event.tokensAfter,
        }),
        status: event.outcome,
      };
    default: {
      const unknown: never = event;
      throw new Error(`unhandled LLM event ${JSON.stringify(unknown)}`);
    }
  }
}

function toolFacts(event: ToolEvent, t: Translate): RowFacts {
  switch (event.type) {
    case 'tool.finished':
      return {
        kind: 'tool',
        error: !event.ok,
        title: event.name,
        detail: event.preview,
        status: event.ok ? 'ok' : 'failed',
      };
    case 'policy.fired':
      // Made from the event's allowlisted fields only: the rule, the action and the tool name (P8.10).
      return {
        kind: 'tool',
        error: false,
        title: t(`activity.policy.${event.action}`, { tool: event.tool }),
        detail: t('activity.policy.rule', { rule: ruleLabel(event.ruleIndex, event.ruleId) }),
        status: event.action,
      };
    default: {
      const unknown: never = event;
      throw new Error(`unhandled tool event ${JSON.stringify(unknown)}`);
    }
  }
}

function approvalFacts(event: ApprovalEvent, t: Translate): RowFacts {
  switch (event.type) {
    case 'tool_request.changed': {
      const { request } = event;
      const key =
        request.status === 'pending'
          ? 'activity.tool.requested'
          : request.status === 'approved'
            ? request.scope === 'task'
              ? 'activity.tool.approvedTask'
              : 'activity.tool.approvedOnce'
            : 'activity.tool.denied';
      return {
        kind: 'approval',
        error: false,
        title: t(key, { tool: request.tool }),
        detail: request.summary,
        status: request.status,
      };
    }
    case 'package_request.changed': {
      const { request } = event;
      const name = `${request.manager} ${request.name}${request.version ? `@${request.version}` : ''}`;
      return {
        kind: 'approval',
        error: false,
        title: t(`activity.package.${request.status === 'pending' ? 'requested' : request.status}`, { name }),
        detail: request.reason,
        status: request.status,
      };
    }
    default: {
      const unknown: never = event;
      throw new Error(`unhandled approval event ${JSON.stringify(unknown)}`);
    }
  }
}

const isJobStatus = (status: string): status is JobStatus => (JOB_STATUSES as readonly string[]).includes(status);
