// The task's conversation, oldest first: its comments and the agent's recorded steps (its text, tool calls and their
// results) with the Invoke headers and movement markers among them, and the files each job changed after its closing
// comment, then what of the generation in progress is not recorded yet. A Send's header has its menu (rewind, fork)
// and what its checkpoint recorded; the Sends a rewind took back are folded under their headers (rewound-rows.ts).
// Virtualized (useVirtualFeed): only the rows near the viewport are in the DOM, so rendering a task of 10,000 items
// costs what one of 100 does. It follows the newest text unless the reader has scrolled up; then a button brings
// them back to the latest. Items come a page at a time: the latest page first, and the page before it when the reader
// nears the top (a row there says it is loading, or offers to load it again).
import { type FocusEvent, memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ChatStep, Comment } from '../../../src-shared/entities';
import type { InvokeKind } from '../../../src-shared/events';
import { useLocale, useT } from '../hooks/useT';
import { useVirtualFeed } from '../hooks/useVirtualFeed';
import { chatItems } from '../store/chat-items';
import { changedOutside, rewoundBy, selectCheckpointIndex } from '../store/checkpoint-index';
import type { Disposition, TaskDetail } from '../store/detail-slice';
import { selectDetail } from '../store/entity-selectors';
import type { JobStream } from '../store/job-stream';
import { useAppStore } from '../store/store';
import { ChatMessage } from './ChatMessage';
import { CheckpointFiles } from './CheckpointFiles';
import { FilesChanged } from './FilesChanged';
import { estimateRowHeight } from './feed-row-heights';
import { type FeedInvoke, type FeedRow, itemRows } from './feed-rows';
import { formatTime } from './format';
import { invokeHeaders, sendNumbers } from './invoke-headers';
import { MovementMarker } from './JobStreamMessage';
import { foldRewound } from './rewound-rows';
import { SendMenu } from './SendMenu';
import { besidePersisted, rowKeys, streamedKeys, streamRows, unreplaced } from './stream-rows';
import { TurnRow } from './TurnRow';

export interface ChatMessageFeedProps {
  comments: readonly Comment[];
  /** The agent's recorded turns, in the same range of the conversation as `comments`. */
  steps?: readonly ChatStep[];
  dispositions: Record<string, Disposition>;
  /** The live generation of the task's job, shown after the persisted comments until they replace it. */
  stream?: JobStream | null;
  /** The question the waiting job asked, shown as the one to answer (P7.02). */
  openQuestionId?: string | null;
  /** The task's Invokes (from its usage), each shown as a header before the comment that started it. */
  invokes?: readonly { seq: number; kind: InvokeKind; jobId: string; ts: string }[];
  /** How many of the task's comments come before `comments` and are not loaded. */
  olderCount?: number;
  olderLoad?: TaskDetail['olderLoad'];
  /** Loads the page before `comments`. */
  onLoadOlder?: () => void;
}

const NO_INVOKES: NonNullable<ChatMessageFeedProps['invokes']> = [];
const NO_STEPS: ChatStep[] = [];
const NO_SEQS: ReadonlySet<number> = new Set();

/** Memoized: LiveFeed renders it with a deferred stream, so a render for an older delta can be skipped. */
export const ChatMessageFeed = memo(function ChatMessageFeed({
  comments,
  steps = NO_STEPS,
  dispositions,
  stream = null,
  openQuestionId = null,
  invokes = NO_INVOKES,
  olderCount = 0,
  olderLoad = 'idle',
  onLoadOlder,
}: ChatMessageFeedProps) {
  const t = useT();
  const labelled = useMemo<FeedInvoke[]>(() => {
    const labels = invokeHeaders(invokes, t);
    const sends = sendNumbers(invokes);
    return invokes.map((invoke, i) => ({ ...invoke, label: labels[i] ?? '', send: sends[i] ?? null }));
  }, [invokes, t]);
  // The cancelled jobs of the task shown, as one string so the selector's answer is stable between renders.
  const cancelledIds = useAppStore((s) =>
    (selectDetail(s)?.jobs ?? [])
      .filter((j) => j.status === 'cancelled')
      .map((j) => j.id)
      .join(' '),
  );
  const cancelled = useMemo(() => new Set(cancelledIds.split(' ').filter(Boolean)), [cancelledIds]);
  // The keys of turns seen streaming, by the step that recorded each, kept after the stream has gone: the step's rows
  // take the turn's key, so the text on screen is not built again when the turn is recorded or the job ends.
  const adopted = useRef(new Map<string, string>());
  for (const [stepId, key] of streamedKeys(stream)) adopted.current.set(stepId, key);
  const keyOf = useCallback((stepId: string) => adopted.current.get(stepId), []);
  const items = useMemo(
    () => itemRows(chatItems(comments, steps), labelled, olderCount, cancelled, keyOf),
    [comments, steps, labelled, olderCount, cancelled, keyOf],
  );
  // The Sends a conversation rewind took back: folded under their headers, each opened to read on request.
  const checkpoints = useAppStore(selectCheckpointIndex);
  const [openRewound, setOpenRewound] = useState<ReadonlySet<number>>(NO_SEQS);
  const onToggleRewound = useCallback(
    (seq: number) =>
      setOpenRewound((open) => {
        const next = new Set(open);
        if (!next.delete(seq)) next.add(seq);
        return next;
      }),
    [],
  );
  const persisted = useMemo(
    () => foldRewound(items, (seq) => rewoundBy(checkpoints, seq)?.createdAt ?? null, openRewound),
    [items, checkpoints, openRewound],
  );
  const persistedKeys = useMemo(() => rowKeys(persisted), [persisted]);
  const live = useMemo(
    () => besidePersisted(persistedKeys, streamRows(unreplaced(stream, comments), lastMovement(persisted))),
    [stream, comments, persisted, persistedKeys],
  );
  const rows = useMemo(() => (live.length > 0 ? [...persisted, ...live] : persisted), [persisted, live]);
  const feed = useVirtualFeed(rows, estimateRowHeight);

  // The reader's own new comment brings the feed back to the latest; an arriving reply does not pull them down.
  const last = comments.at(-1);
  const seenLast = useRef(last?.id);
  const { follow } = feed;
  useEffect(() => {
    if (!last || last.id === seenLast.current) return;
    seenLast.current = last.id;
    if (last.author === 'user') follow();
  }, [last, follow]);

  // The reader is near the top (the loading row is rendered): the page before comes, once at a time; after a failure,
  // only when they ask for it.
  const nearTop = olderCount > 0 && feed.nearStart && rows.length > 0;
  useEffect(() => {
    if (nearTop && olderLoad === 'idle') onLoadOlder?.();
  }, [nearTop, olderLoad, onLoadOlder]);

  const { onRowFocus } = feed;
  const onFocus = (event: FocusEvent<HTMLElement>) => {
    const row = (event.target as HTMLElement).closest<HTMLElement>('[data-testid="feed-row"]');
    onRowFocus(row?.dataset.key ?? null);
  };
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) onRowFocus(null);
  };

  if (rows.length === 0) {
    return <p className="notice feed-empty">{t('chat.empty')}</p>;
  }
  // Where each row stands in the whole conversation, the comments not loaded counted in.
  const before = olderCount > 0 ? olderCount - 1 : 0;
  return (
    <div className="feed-viewport">
      <div
        className="feed"
        ref={feed.scrollerRef}
        onScroll={feed.onScroll}
        onWheel={feed.onWheel}
        onKeyDown={feed.onKeyDown}
        onFocus={onFocus}
        onBlur={onBlur}
        role="log"
        aria-live="polite"
        aria-label={t('chat.conversation')}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region is focusable so the keyboard scrolls it (arrows, Page Up/Down, Home, End) and reaches rows not rendered yet.
        tabIndex={0}
        data-testid="chat-feed"
        data-rows={rows.length}
        data-older={olderCount}
        data-pinned={feed.pinned}
      >
        <ol className="feed-rows" style={{ height: feed.totalSize }}>
          {feed.items.map(({ index, start }) => {
            const row = rows[index] as FeedRow;
            return (
              <li
                key={row.key}
                ref={feed.measureRef}
                className={`feed-row feed-row-${row.kind}${row.kind === 'turn' && !row.first ? ' feed-row-more' : ''}`}
                style={{ transform: `translateY(${start}px)` }}
                data-testid="feed-row"
                data-key={row.key}
                data-index={index}
                aria-setsize={before + rows.length}
                aria-posinset={before + index + 1}
              >
                <FeedRowContent
                  row={row}
                  olderLoad={row.kind === 'older' ? olderLoad : undefined}
                  onLoadOlder={row.kind === 'older' ? onLoadOlder : undefined}
                  disposition={row.kind === 'comment' ? dispositions[row.key] : undefined}
                  open={row.kind === 'comment' && row.key === openQuestionId}
                  llm={row.kind === 'turn' && row.last ? stream?.llm : undefined}
                  onToggleRewound={row.kind === 'rewound' ? onToggleRewound : undefined}
                />
              </li>
            );
          })}
        </ol>
      </div>
      {feed.pinned ? null : (
        <button type="button" className="button feed-jump" onClick={feed.jumpToLatest} data-testid="feed-jump-latest">
          {t('chat.jumpToLatest')}
        </button>
      )}
    </div>
  );
});

/** The movement the last marker of `rows` shows, or null. */
function lastMovement(rows: readonly FeedRow[]): string | null {
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i] as FeedRow;
    if (row.kind === 'movement') return row.movement;
  }
  return null;
}

/** A row of the live stream: the turn's text (or a part of it), its reasoning first, its tool calls last. */
export const StreamTurnRow = TurnRow;

interface RowProps {
  row: FeedRow;
  /** For the row above the comments loaded only, so the other rows do not render again when a page comes. */
  olderLoad: TaskDetail['olderLoad'] | undefined;
  onLoadOlder: (() => void) | undefined;
  disposition: Disposition | undefined;
  open: boolean;
  llm: JobStream['llm'] | undefined;
  onToggleRewound: ((seq: number) => void) | undefined;
}

const FeedRowContent = memo(function FeedRowContent({
  row,
  olderLoad,
  onLoadOlder,
  disposition,
  open,
  llm,
  onToggleRewound,
}: RowProps) {
  switch (row.kind) {
    case 'older':
      return <OlderRow count={row.count} load={olderLoad ?? 'idle'} onLoad={onLoadOlder} />;
    case 'comment':
      return <ChatMessage comment={row.comment} disposition={disposition} open={open} />;
    case 'invoke':
      return <InvokeHeader invoke={row.invoke} />;
    case 'movement':
      return <MovementMarker movement={row.movement} />;
    case 'turn':
    case 'step':
      // One component for both: a recorded step keeps the DOM of the streamed turn it replaces.
      return <TurnRow row={row} llm={llm} />;
    case 'files':
      return <FilesChanged row={row} />;
    case 'rewound':
      return <RewoundRow row={row} onToggle={onToggleRewound} />;
    default: {
      const unknown: never = row;
      throw new Error(`unknown feed row ${JSON.stringify(unknown)}`);
    }
  }
});

/** Above the comments loaded: "Loading earlier messages…" while the page comes, else a button that loads it. */
function OlderRow({ count, load, onLoad }: { count: number; load: TaskDetail['olderLoad']; onLoad?: () => void }) {
  const t = useT();
  if (load === 'loading') {
    return (
      <p className="feed-older" role="status" data-testid="feed-older" data-load={load}>
        {t('chat.loadingEarlier')}
      </p>
    );
  }
  return (
    <p className="feed-older" data-testid="feed-older" data-load={load}>
      {load === 'error' ? <span className="feed-older-error">{t('chat.earlierFailed')}</span> : null}
      <button type="button" className="button" onClick={onLoad} data-testid="feed-load-older">
        {t('chat.loadEarlier', { count })}
      </button>
    </p>
  );
}

/**
 * Where an Invoke began (P9.18): "Send #N" for the user's sends, Notify or Event for the others. A Send has its menu
 * (rewind, fork); a rewound one says it is no longer sent to the model; under it, the files its checkpoint found
 * changed outside the agent (the person's edits since the previous checkpoint).
 */
function InvokeHeader({ invoke }: { invoke: FeedInvoke }) {
  const locale = useLocale();
  const t = useT();
  const checkpoint = useAppStore((s) => selectCheckpointIndex(s).atSend.get(invoke.seq));
  const rewound = useAppStore((s) => rewoundBy(selectCheckpointIndex(s), invoke.seq) !== null);
  return (
    <div className="feed-invoke-block" data-testid="feed-invoke-block" data-seq={invoke.seq} data-rewound={rewound}>
      <p className="feed-marker feed-invoke" data-testid="feed-invoke" data-kind={invoke.kind} data-send={invoke.send}>
        <span className="feed-invoke-label">{invoke.label}</span>
        <time dateTime={invoke.ts}>{formatTime(invoke.ts, locale)}</time>
        {rewound ? (
          <span className="feed-rewound-mark" data-testid="feed-rewound">
            {t('checkpoint.rewound')}
          </span>
        ) : null}
        {invoke.send !== null ? <SendMenu invoke={invoke} send={invoke.send} /> : null}
      </p>
      {checkpoint && changedOutside(checkpoint) ? <CheckpointFiles checkpoint={checkpoint} /> : null}
    </div>
  );
}

/** A rewound Send's rows, folded: a button that shows them (to read; they are never sent to the model again). */
function RewoundRow({
  row,
  onToggle,
}: {
  row: Extract<FeedRow, { kind: 'rewound' }>;
  onToggle?: (seq: number) => void;
}) {
  const t = useT();
  return (
    <p className="feed-rewound" data-testid="feed-rewound-fold" data-seq={row.seq} data-count={row.count}>
      <button type="button" className="link-button" aria-expanded={row.open} onClick={() => onToggle?.(row.seq)}>
        {t(row.open ? 'checkpoint.rewoundHide' : 'checkpoint.rewoundShow')}
      </button>
    </p>
  );
}
