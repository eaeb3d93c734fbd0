// The messages between the desktop's main process and the core in its utility process, over the core's MessagePort
// (Electron's parentPort). Operations travel by name from the contract's one list (no channel list of their own),
// each with an id its answer carries back; events and the tray's attention follow as they happen. Both sides parse
// what they receive with these schemas: a message of another shape is dropped and logged, never half-read.
import { z } from 'zod';
import { OPERATION_NAMES } from '../../src-shared/contract';
import { ERROR_STATUS, type ErrorCode } from '../../src-shared/errors';

/** What the core is started with: the data dir and where the built app keeps its parts, from main. */
export const CoreStartOptions = z
  .object({
    dataDir: z.string().min(1),
    piecesDir: z.string().min(1),
    /** The renderer the HTTP bridge serves beside the API. */
    rendererDir: z.string().min(1),
    version: z.string().min(1),
    /** better_sqlite3.node built for Electron's ABI. */
    nativeBinding: z.string().min(1).optional(),
    /**
     * The data key the OS keychain wraps (base64, 32 bytes), opened by main (safeStorage lives there only). Absent:
     * the data dir's secret.key, as for the headless host.
     */
    keychainKey: z.string().min(1).optional(),
  })
  .strict();
export type CoreStartOptions = z.infer<typeof CoreStartOptions>;

const Id = z.number().int().nonnegative();

/** Main → core. */
export const ToCore = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('start'), options: CoreStartOptions }),
  z.object({ kind: z.literal('call'), id: Id, op: z.enum(OPERATION_NAMES), input: z.unknown() }),
  /** The turns being generated now, for a window that (re)joined mid-stream. */
  z.object({ kind: z.literal('live'), id: Id }),
  /** Close the bridge and the core (running jobs are persisted for the next start), then exit. */
  z.object({ kind: z.literal('stop') }),
]);
export type ToCore = z.infer<typeof ToCore>;

const ErrorBody = z.object({
  code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
  message: z.string(),
  issues: z.array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() })).optional(),
});

/** Core → main. Events and results are the core's own objects: only their envelope is checked here. */
export const FromCore = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ready'), dataDir: z.string(), bridgeUrl: z.string() }),
  z.object({ kind: z.literal('failed'), message: z.string() }),
  z.object({
    kind: z.literal('result'),
    id: Id,
    result: z.union([
      z.object({ ok: z.literal(true), value: z.unknown() }),
      z.object({ ok: z.literal(false), error: ErrorBody }),
    ]),
  }),
  z.object({ kind: z.literal('live'), id: Id, events: z.array(z.unknown()) }),
  /** The core's events since its last message, in order. */
  z.object({ kind: z.literal('events'), events: z.array(z.object({ type: z.string() }).passthrough()) }),
  /** The tray's list, and the OS notification to show for the change (before the window's own check), if any. */
  z.object({
    kind: z.literal('attention'),
    items: z.array(z.object({ taskId: z.string(), title: z.string(), detail: z.string() }).passthrough()),
    notice: z
      .object({
        taskId: z.string(),
        title: z.string(),
        body: z.string(),
        silent: z.boolean(),
        decide: z.object({ requestId: z.string() }).optional(),
      })
      .nullable(),
  }),
  z.object({ kind: z.literal('stopped') }),
]);
export type FromCore = z.infer<typeof FromCore>;
