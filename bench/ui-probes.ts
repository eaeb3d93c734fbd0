// The UI bench's in-page probes (bench/ui.ts runs them in Chromium), as JavaScript text rather than functions: this
// file compiles for Node (no DOM types), and tsx would wrap functions in esbuild's __name helper, which the page does
// not have.

/**
 * Clicks the task in the list; resolves with the ms until its last entry's bottom is inside the feed's viewport,
 * and when the task's getTaskRecent answer had arrived (Resource Timing) and its size.
 */
export const SWITCH_PROBE = `({ taskId, lastId, timeoutMs }) => new Promise((resolve, reject) => {
  const item = document.querySelector('[data-testid="task-item"][data-task-id="' + taskId + '"]');
  if (!item) throw new Error('no task item ' + taskId + ' in the list');
  let done = false;
  const shown = () => {
    const entry = document.querySelector('[data-comment-id="' + lastId + '"], [data-step-id="' + lastId + '"]');
    const feed = document.querySelector('[data-testid="chat-feed"]');
    if (!entry || !feed) return false;
    const e = entry.getBoundingClientRect();
    const f = feed.getBoundingClientRect();
    return e.height > 0 && e.bottom <= f.bottom + 1 && e.bottom > f.top;
  };
  const finish = (result) => {
    done = true;
    observer.disconnect();
    if (result instanceof Error) return reject(result);
    const answer = performance
      .getEntriesByType('resource')
      .find((e) => e.name.endsWith('/api/local/tasks/' + taskId + '/recent') && e.startTime >= start);
    resolve({
      ms: result,
      answerMs: answer ? answer.responseEnd - start : NaN,
      bytes: answer ? answer.encodedBodySize : NaN,
    });
  };
  const check = () => {
    if (done) return;
    const elapsed = performance.now() - start;
    if (shown()) finish(elapsed);
    else if (elapsed > timeoutMs) finish(new Error('the last entry of ' + taskId + ' did not show in ' + timeoutMs + ' ms'));
  };
  const frame = () => {
    check();
    if (!done) requestAnimationFrame(frame);
  };
  // Checked on every DOM change and every animation frame.
  const observer = new MutationObserver(check);
  observer.observe(document.body, { subtree: true, childList: true, attributes: true });
  performance.clearResourceTimings();
  const start = performance.now();
  item.click();
  requestAnimationFrame(frame);
})`;

/** Rows of the feed in the DOM (before the feed was virtualized, a row was the message itself) and its elements. */
export const DOM_PROBE = `(() => {
  const feed = document.querySelector('[data-testid="chat-feed"]');
  const rows = feed ? feed.querySelectorAll('[data-testid="feed-row"]').length : 0;
  const messages = feed ? feed.querySelectorAll('[data-testid="chat-message"]').length : 0;
  return { rows: rows || messages, elements: feed ? feed.querySelectorAll('*').length : 0 };
})()`;

/** Starts the recorders: long tasks (PerformanceObserver), event-loop lag (a 10 ms interval), animation frame gaps. */
export const RECORD_START = `(() => {
  const record = { longTasks: [], maxLagMs: 0, maxFrameGapMs: 0, frames: 0 };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) record.longTasks.push(entry.duration);
  });
  observer.observe({ type: 'longtask' });
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    record.maxLagMs = Math.max(record.maxLagMs, now - last - 10);
    last = now;
  }, 10);
  let previousFrame = performance.now();
  let running = true;
  const frame = (now) => {
    if (!running) return;
    record.frames++;
    record.maxFrameGapMs = Math.max(record.maxFrameGapMs, now - previousFrame);
    previousFrame = now;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  window.benchStop = () => {
    running = false;
    clearInterval(timer);
    observer.disconnect();
    return record;
  };
})()`;

export const RECORD_STOP = 'window.benchStop()';

export const call = (probe: string, args: unknown) => `(${probe})(${JSON.stringify(args)})`;
