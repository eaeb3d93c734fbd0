// Imports TAKT workflow files — the current layout (`steps`, builtins/<lang>/workflows + facets + steps), April 2026's
// `pieces` layout and February 2026's (`movements`) — into MAESTRO's Piece shape, so people can bring the workflows
// they already have. Called workflows (`kind: workflow_call`) are inlined as movements named `<step>.<their step>`;
// parallel parts become one movement that does them in turn; a loop monitor's judge becomes a movement the loop check
// enters. What cannot be mapped is refused with its file, line and field. pieces/README.md has the mapping.
import path from 'node:path';
import { emit, entry } from './takt-emit';
import type { TaktFiles } from './takt-files';
import { WorkflowReader } from './takt-prepare';
import { TaktWorkflow } from './takt-schema';

/** A TAKT file is recognised by its own words: steps, rules, initial_movement/initial_step, or no `id`. */
export function looksLikeTakt(raw: unknown): boolean {
  if (!raw || typeof raw !== 'object') return false;
  const r = raw as Record<string, unknown>;
  const own = ['steps', 'initial_step', 'initial_movement', 'max_iterations', 'max_steps', 'subworkflow'];
  if (own.some((k) => k in r)) return true;
  const movements = Array.isArray(r.movements) ? (r.movements as Record<string, unknown>[]) : [];
  const stepWords = ['rules', 'allowed_tools', 'persona', 'instruction', 'parallel'];
  return !('id' in r) && movements.some((m) => m && typeof m === 'object' && stepWords.some((k) => k in m));
}

export type TaktConversion = { kind: 'piece'; piece: Record<string, unknown> } | { kind: 'callable' };

/** The MAESTRO piece object (checked afterwards like any piece file) for the TAKT file at `rel` under `files`. */
export function convertTakt(rel: string, files: TaktFiles): TaktConversion {
  const reader = new WorkflowReader(files);
  const file = reader.parse(rel);
  const top = TaktWorkflow.safeParse(file.value);
  if (top.success && top.data.subworkflow?.callable === true) return { kind: 'callable' };
  const root = reader.prepare(rel, '', {}, {}, [], []);
  const movements: Record<string, unknown>[] = [];
  const monitors: Record<string, unknown>[] = [];
  emit(files, root, { COMPLETE: { kind: 'complete' }, ABORT: { kind: 'abort' } }, movements, monitors);
  const w = root.workflow;
  const budget = w.max_steps ?? w.max_movements ?? w.max_iterations;
  return {
    kind: 'piece',
    piece: {
      id: path.posix
        .basename(rel)
        .replace(/\.ya?ml$/, '')
        .toLowerCase()
        .replace(/[^a-z0-9_-]/g, '-'),
      name: w.name,
      description: w.description,
      start_movement: entry(root),
      ...(budget !== undefined ? { max_movements: budget, revisit_limit: budget } : { revisit_limit: 20 }),
      movements,
      loop_monitors: monitors,
    },
  };
}
