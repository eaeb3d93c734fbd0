// The Auto Prompter of a job (spec §4.1): its Policy Snapshot, evaluated before each regular tool call — after the
// argument checks, before the tool's own permission and approval. A firing rule adds an instruction (a user message
// appended before the next LLM request), denies the call, or lets one matching call run without a tool request. Each
// firing is recorded, best effort, as a Policy Event of allowlisted fields. Off → no gate: the path is not entered.
import { ruleLabel } from '../../src-shared/auto-prompter';
import type { NewEvent } from '../../src-shared/events';
import { type CompiledRule, compileRules, ruleMatches } from './auto-prompter-rules';
import { openSnapshot, type PolicySnapshot, saveSnapshot } from './auto-prompter-snapshot';
import type { EngineJob, JobJournal } from './job-journal';
import type { JobRun } from './job-run';
import type { MovementDefinition } from './pieces/schema';
import type { GateVerdict, ToolGate } from './tool-dispatch';

/** How an instruction reaches the model: the rule's text, said to come from the Auto Prompter. */
export const instructionMessage = (text: string) => `Instruction from the Auto Prompter: ${text}`;

/** The tool result of a denied call (it starts with `Error:` once the dispatcher adds the prefix). */
export const denialMessage = (tool: string, label: string, reason: string) =>
  `the Auto Prompter denied this ${tool} call (rule ${label}): ${reason}`;

interface JobPlace {
  journal: JobJournal;
  taskId: string;
  jobId: string;
  workspacePath: string;
  runtimeDir: string | undefined;
}

export class AutoPrompter {
  private readonly rules: CompiledRule[];
  private readonly used: Set<number>;

  constructor(
    private readonly snapshot: PolicySnapshot,
    private readonly place: JobPlace,
  ) {
    this.rules = compileRules(snapshot.settings.rules);
    this.used = new Set(snapshot.usedApprovals);
  }

  /** The gate for one reply of `run`: an instruction that fires on several calls of the reply is added once. */
  gate(run: Pick<JobRun, 'queueNote'>): ToolGate {
    const noted = new Set<number>();
    return {
      check: (tool, args) =>
        this.evaluate(tool, args, (rule, text) => {
          if (noted.has(rule)) return;
          noted.add(rule);
          run.queueNote(instructionMessage(text));
        }),
    };
  }

  /**
   * The rules in file order: every matching `instruct` fires and evaluation goes on; the first matching `deny` or
   * unused `approve_once` fires and decides. A used approve_once is as if absent (P8.06).
   */
  evaluate(tool: string, args: unknown, instruct: (rule: number, text: string) => void): GateVerdict {
    for (const compiled of this.rules) {
      const { rule, index } = compiled;
      if (rule.action === 'approve_once' && this.used.has(index)) continue;
      if (!ruleMatches(compiled, tool, args, this.place.workspacePath)) continue;
      switch (rule.action) {
        case 'instruct':
          this.record(compiled, tool);
          instruct(index, rule.text);
          continue;
        case 'deny': {
          this.record(compiled, tool);
          const label = ruleLabel(index, rule.id);
          return {
            kind: 'deny',
            message: denialMessage(tool, label, rule.reason),
            denial: { by: 'rule', rule: label, reason: rule.reason },
          };
        }
        case 'approve_once':
          // Used before the call runs, and stored, so no restart can grant it twice; unstorable → not granted.
          this.used.add(index);
          if (!this.storeUsed(compiled)) continue;
          this.record(compiled, tool);
          return { kind: 'approve_once' };
      }
    }
    return { kind: 'proceed' };
  }

  private storeUsed({ index, rule }: CompiledRule): boolean {
    try {
      saveSnapshot(this.place.runtimeDir, { ...this.snapshot, usedApprovals: [...this.used] });
      return true;
    } catch (error) {
      console.warn(
        `Auto Prompter: job ${this.place.jobId}: the one-time approval of rule ${ruleLabel(index, rule.id)} could ` +
          `not be stored, so it is not used (${(error as Error).message})`,
      );
      return false;
    }
  }

  /** The Policy Event (P8.07): allowlisted fields only — never arguments, reasoning, prompts or rule texts (P8.10). */
  private record({ index, rule }: CompiledRule, tool: string): void {
    const event: NewEvent = {
      type: 'policy.fired',
      taskId: this.place.taskId,
      jobId: this.place.jobId,
      ruleIndex: index,
      ruleId: rule.id ?? null,
      action: rule.action,
      tool,
    };
    try {
      this.place.journal.publish(event);
    } catch (error) {
      // Best effort (P8.11): the decision applies whether or not it could be recorded.
      console.warn(
        `Auto Prompter: job ${this.place.jobId}: the Policy Event of rule ${ruleLabel(index, rule.id)} ` +
          `(${rule.action} ${tool}) could not be recorded (${(error as Error).message}); the decision still applies`,
      );
    }
  }
}

/** By the job record a run (and its delegated sub-agents) shares: one Auto Prompter per run of a job. */
const prompters = new WeakMap<EngineJob, AutoPrompter | null>();

/**
 * The job's Auto Prompter, or null when it is off. The snapshot is taken at the job's first movement, before its
 * first LLM request, and reused by every later run of the same job (P8.01). Throws ConfigFileError when the rules
 * file or the stored snapshot is broken.
 */
export function autoPrompterOf(run: JobRun, movement: MovementDefinition): AutoPrompter | null {
  const known = prompters.get(run.job);
  if (known !== undefined) return known;
  const { workspacePath, runtimeDir, taskId, jobId } = run.toolContext(movement);
  // From the accepted rules, as the Worker took it: an off snapshot is not stored (openSnapshot), so it is taken again.
  const snapshot = openSnapshot(workspacePath, runtimeDir, jobId, run.options.readSettings);
  const prompter = snapshot.settings.enabled
    ? new AutoPrompter(snapshot, { journal: run.journal, taskId, jobId, workspacePath, runtimeDir })
    : null;
  prompters.set(run.job, prompter);
  return prompter;
}
