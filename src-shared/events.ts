// The event union pushed to subscribers (IPC push, SSE); every persisted event has a strictly increasing seq.
import { z } from 'zod';
import { Comment, Job, PackageRequest, Task, ToolRequest } from './entities';

const base = { seq: z.number().int(), ts: z.string(), taskId: z.string(), jobId: z.string().nullable() };

export const MaestroEvent = z.discriminatedUnion('type', [
  z.object({ ...base, type: z.literal('task.created'), task: Task }),
  z.object({ ...base, type: z.literal('job.changed'), job: Job }),
  z.object({ ...base, type: z.literal('comment.created'), comment: Comment }),
  z.object({ ...base, type: z.literal('tool_request.changed'), request: ToolRequest }),
  z.object({ ...base, type: z.literal('package_request.changed'), request: PackageRequest }),
]);
export type MaestroEvent = z.infer<typeof MaestroEvent>;
export type MaestroEventType = MaestroEvent['type'];

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** An event before the event log has given it a seq and a timestamp. */
export type NewEvent = DistributiveOmit<MaestroEvent, 'seq' | 'ts'>;
