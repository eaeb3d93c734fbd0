// What the engine bench's model says: a read-only test tool called with distinct arguments, then `complete`.
import { z } from 'zod';
import type { ToolDef } from '../../src-main/tools/types';
import type { ScriptedStep } from '../../test-support/scripted-llm-server';

/** Read-only, answers at once with a short string. */
export const probeFile: ToolDef<{ path: string }> = {
  name: 'probe_file',
  description: 'Reads a small file of the workspace. Returns its first line.',
  parameters: z.strictObject({ path: z.string().min(1) }),
  readOnly: true,
  execute: async (args) => ({ kind: 'result', ok: true, content: `first line of ${args.path}: ok` }),
};

const probeCall = (i: number): ScriptedStep => ({
  toolCalls: [{ name: probeFile.name, arguments: { path: `src/module-${String(i).padStart(4, '0')}.ts` } }],
});
const completeCall: ScriptedStep = {
  toolCalls: [{ name: 'complete', arguments: { status: 'success', message: 'All files read.' } }],
};

/** The raw SDK's untimed first reply: the connection open and the code paths warm before the clock starts. */
export const WARM_UP_STEP = probeCall(9999);
/** Its counterpart, a short job run first on each app, so that the measured job finds it as a user's open app has. */
export const WARM_UP_SCRIPT: ScriptedStep[] = [WARM_UP_STEP, completeCall];

/** `iterations` replies: distinct probe calls (the repeated-call guard never fires), then complete. */
export function loopScript(iterations: number): ScriptedStep[] {
  return [...Array.from({ length: iterations - 1 }, (_, i) => probeCall(i)), completeCall];
}

export const TRANSITION_EVERY = 20;

/** The same, with a transition gather ⇄ check every TRANSITION_EVERY replies. */
export function relayScript(iterations: number): ScriptedStep[] {
  const steps: ScriptedStep[] = [];
  let inGather = true;
  for (let i = 0; i < iterations - 1; i++) {
    if ((i + 1) % TRANSITION_EVERY === 0) {
      const next = inGather ? 'check' : 'gather';
      steps.push({ toolCalls: [{ name: 'transition', arguments: { next, reason: `batch ${i} done` } }] });
      inGather = !inGather;
    } else steps.push(probeCall(i));
  }
  steps.push(completeCall);
  return steps;
}

/** 1-based request numbers whose previous reply was a transition. */
export function transitionsAt(script: readonly ScriptedStep[]): number[] {
  return script.flatMap((s, i) => ('toolCalls' in s && s.toolCalls?.[0]?.name === 'transition' ? [i + 1] : []));
}
