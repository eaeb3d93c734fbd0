// The shapes a TAKT workflow is read into on its way to movements: a Scope (one workflow, as called) of Prepared steps,
// where a rule leads (Target), and the file and field each came from (At).

import type { Facets } from './takt-facets';
import type { TaktFiles } from './takt-files';
import type { TaktStep, TaktWorkflow } from './takt-schema';

export type Target =
  | { kind: 'movement'; name: string }
  | { kind: 'complete' }
  | { kind: 'abort'; why?: string }
  | { kind: 'ask'; then?: Target };
export type Exits = Record<string, Target>;
export type At = { rel: string; path: (string | number)[] };

export interface Prepared {
  name: string;
  step: TaktStep;
  at: At;
  /** The fragment files the step came from (`uses`). */
  fragments: string[];
  call?: Scope;
  parts?: { fixed: Prepared[]; pool: Prepared[] };
}

export interface Scope {
  rel: string;
  workflow: TaktWorkflow;
  facets: Facets;
  prefix: string;
  steps: Prepared[];
  initial: string;
  vars: Readonly<Record<string, string | number | boolean>>;
  /** `all_steps.rules` in force here: the calling workflows' first, then this one's. */
  rules: readonly WorkflowRule[];
}

export interface WorkflowRule {
  position: 'after_execution_rules' | 'before_instruction';
  text: string;
}

/** " (from <fragment file> → …)" for a step that came from fragments, else ''. */
export const fromFragments = (files: TaktFiles, fragments: string[]) =>
  fragments.length > 0 ? ` (from ${fragments.map((f) => files.show(f)).join(' → ')})` : '';
