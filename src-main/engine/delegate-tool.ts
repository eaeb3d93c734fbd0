// delegate: runs a sub-agent on one instruction in an isolated conversation (its messages never enter the parent's),
// through the same executeMovement, with the parent's tools or fewer; its final message is the tool's result.
import { z } from 'zod';
import { assertNever } from '../../src-shared/assert-never';
import { fail, ok } from '../tools/outcome';
import type { AnyToolDef } from '../tools/types';
import { executeMovement } from './agent-loop';
import { Conversation } from './conversation';
import type { JobRun } from './job-run';
import type { MovementDefinition } from './pieces/schema';
import { limitReached, type SpendLimit } from './spend-limits';
import { COMPLETE, CompleteArgs, completeDescription } from './terminal-tools';
import { specOf, toolSpec } from './tool-specs';

const Args = z.strictObject({
  instruction: z.string().min(1).describe('What the sub-agent must do and report back, complete on its own.'),
  tools: z.array(z.string()).optional().describe('The tools it may use (default: all of yours).'),
});

const GUIDANCE = `You are a sub-agent. Do exactly the instruction below with the tools you have, then call \`complete\` with
status "success" and, as message, everything the caller needs to know. If it cannot be done, call \`complete\` with
status "failure" and the reason. You cannot ask the user anything.`;

/**
 * The delegate tool of a run whose piece allows it; `parent` is read when it is called. A sub-agent gets it while
 * its own would stay within `maxDepth`; a call past it anyway is refused, saying so.
 */
export function delegateTool(parent: () => JobRun, maxDepth: SpendLimit, policyFile: string): AnyToolDef {
  return {
    name: 'delegate',
    description: 'Hands one self-contained instruction to a sub-agent and returns its final report.',
    parameters: Args,
    readOnly: false,
    async execute(args: z.infer<typeof Args>, ctx) {
      const run = parent();
      if (run.depth + 1 > maxDepth.value) {
        return fail(limitReached(`a sub-agent here would be ${run.depth + 1} levels deep`, maxDepth, policyFile));
      }
      let child: JobRun | undefined;
      // The sub-agent's own delegate is bound to its run, so each level counts from where it is.
      const allowed = [...run.tools.values()]
        .filter(
          (t) =>
            (args.tools ? args.tools.includes(t.name) : true) &&
            (t.name !== 'delegate' || run.depth + 1 < maxDepth.value),
        )
        .map((t) => (t.name === 'delegate' ? delegateTool(() => child as JobRun, maxDepth, policyFile) : t));
      const unknown = (args.tools ?? []).filter((name) => !run.tools.has(name));
      if (unknown.length > 0) return fail(`delegate: tools not available here: ${unknown.join(', ')}`);
      const conversation = Conversation.inMemory(run.job.id);
      const movement: MovementDefinition = {
        name: 'delegate',
        description: 'A delegated sub-agent',
        guidance: GUIDANCE,
        tools: null,
        edit: ctx.canEdit,
        maxIterations: 30,
        transitions: [],
      };
      conversation.seed(
        `${GUIDANCE}\n\n# Tools\n${allowed.map((t) => `- ${t.name}: ${t.description.split('. ')[0]}`).join('\n') || '(none)'}`,
        `# Instruction\n${args.instruction}`,
      );
      child = run.delegateRun(conversation, allowed, [
        ...allowed.map(specOf),
        toolSpec(COMPLETE, completeDescription, CompleteArgs),
      ]);
      const result = await executeMovement(child, movement);
      switch (result.kind) {
        case 'complete':
          return ok(result.message);
        case 'error':
          return fail(`the sub-agent failed: ${result.message}`);
        case 'ask':
          return fail(`the sub-agent needed an answer it cannot get: ${result.question}`);
        case 'wait_approval':
          return fail("the sub-agent needed a person's approval; do that step yourself");
        case 'wait_subtasks':
          return fail('the sub-agent cannot wait for subtasks');
        case 'wait_browser':
          return fail(
            `the sub-agent needed the user in their browser; do that step yourself: ${result.step.instruction}`,
          );
        case 'wait_mcp_auth':
          return fail(`the sub-agent could not use MCP server "${result.server}": ${result.message}`);
        case 'cancelled':
          return fail(`cancelled: ${result.reason}`);
        case 'next':
          return fail('the sub-agent cannot change movements');
        default:
          return assertNever(result, 'delegate result');
      }
    },
  };
}
