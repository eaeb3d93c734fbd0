// A TAKT `team_leader` step as one MAESTRO movement. In TAKT the leader (team_leader.persona, else the step's) splits
// the step's instruction into parts ({id, title, instruction}) — reading with `inspect_tools` at most, at most
// `initial_max_parts` (or `max_parts`) of them at first — each part runs as its own agent (part_persona,
// part_allowed_tools, part_edit, part_permission_mode), and when few enough planned parts are left (refill_threshold)
// the leader may plan more, up to 20 parts in all; the step's output is the plan and every part's result. Here the
// model does all of it in one conversation, part after part, switching to the part worker's persona.

import type { TaktStep } from './takt-schema';
import { mapTools } from './takt-tools';

/** TAKT's cap on the parts of one team leader step (team-leader-execution: DEFAULT_MAX_TOTAL_PARTS). */
export const MAX_TOTAL_PARTS = 20;

export type TeamLeader = NonNullable<TaktStep['team_leader']>;

/** The step as TAKT runs each part (createPartStep): its tools, edit and permission mode; no reports of its own. */
export function partStep(step: TaktStep, leader: TeamLeader): TaktStep {
  const { team_leader: _, output_contracts: __, ...rest } = step;
  return {
    ...rest,
    ...(leader.part_allowed_tools ? { allowed_tools: leader.part_allowed_tools, provider_options: undefined } : {}),
    ...(leader.part_edit !== undefined ? { edit: leader.part_edit } : {}),
    ...(leader.part_permission_mode ? { required_permission_mode: leader.part_permission_mode } : {}),
  };
}

/** The MAESTRO tools the leader may read with while it plans (`inspect_tools`); none by default. */
export const inspectTools = (leader: TeamLeader): string[] => mapTools(leader.inspect_tools ?? []);

/**
 * The movement's instruction body: how to lead (plan, do each part, plan more), around the step's own text (its
 * knowledge, instruction, policies), which is the work to split. `separateWorker`: the part worker has a persona of
 * its own, in the guidance under "## Part worker".
 */
export function teamLeaderBody(leader: TeamLeader, work: string, separateWorker: boolean, canEdit: boolean): string {
  const first = leader.initial_max_parts ?? leader.max_parts ?? leader.max_concurrency ?? 3;
  const refill = leader.refill_threshold ?? 0;
  const reading = inspectTools(leader);
  const plan = reading.length > 0 ? `using no tool but ${reading.join(', ')}` : 'using no tool';
  const worker = separateWorker ? ' described under "## Part worker" in your guidance' : '';
  const when =
    refill === 0 ? 'When every planned part is done' : `When ${refill} or fewer planned parts are left to do`;
  const failing = leader.fail_on_part_error
    ? ' If a part fails, you may plan parts that recover from it, but the step then ends in failure: call `complete` with status "failure".'
    : ' A part that cannot be done is reported with why, and the next part goes on.';
  const steps = [
    '## Team leader',
    'You lead this step: you split the work below into parts, then the parts are done one by one.',
    `1. Plan, ${plan}: split the work into between 1 and ${first} independent, self-contained parts. Write the plan as a list: each part with an id, a title and its instruction.`,
    `2. Do the parts one after another, each as the part worker${worker}, following only that part's instruction.${canEdit ? '' : ' The parts may not change files.'}${failing}`,
    `3. ${when}, decide as the team leader whether more parts are needed: plan new parts (new ids; at most ${MAX_TOTAL_PARTS} parts in all) and do them the same way, or say that planning is done.`,
    '4. End the step with its output: "## decomposition" and your plan, then "## <id>: <title>" and the result of each part, in order.',
  ];
  return `${steps.join('\n')}\n\n### The work to split\n${work}`;
}
