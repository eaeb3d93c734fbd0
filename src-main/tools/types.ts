// Tools as data: name, description, zod parameters (the model-facing JSON schema is derived from them unless the tool
// brings its own), whether the tool only reads, and execute. A tool answers with text for the model, or asks the job to wait for a person.
import type { z } from 'zod';
import type { ToolCallDenial, ToolRequestDisplay } from '../../src-shared/entities';
import type { NewPackageRequest } from '../db/repos/package-requests';
import type { NewToolRequest } from '../db/repos/tool-requests';
import type { SandboxChoice } from './os-sandbox';

export interface ToolContext {
  taskId: string;
  jobId: string;
  workspacePath: string;
  /** Whether the current movement may change files. */
  canEdit: boolean;
  signal: AbortSignal;
  /** The task's runtime dir (runs/{taskId}): run_command finds the task's approved packages below it (P2.19). */
  runtimeDir?: string;
  /** The host's OS sandbox for commands, or why there is none (then every command asks). */
  sandbox: SandboxChoice;
  /** The facet pools the current movement offers (select_facets picks from them); none: absent or []. */
  facetPools?: readonly FacetPoolOffer[];
  /**
   * Set by the engine only for the call a person approved on its card: a write to a file that runs code outside the
   * sandbox (runs-outside.ts) goes through then, never otherwise (not by a policy, a grant or the Auto Prompter).
   */
  approvedByPerson?: boolean;
  /** Tells the live stream how a running call is getting on (set per call by the dispatcher). */
  progress?(update: ToolProgress): void;
  /** The run's sink for every call's progress; the dispatcher binds it to each call as `progress`. */
  onToolProgress?(call: { id: string; name: string }, update: ToolProgress): void;
  /** Called before a call of a tool that may change files runs: the workspace's checkpoint (never throws). */
  beforeChange?(callId: string): Promise<void> | undefined;
}

/** A TAKT facet pool as a movement offers it: its key, an optional limit, the candidates and their text. */
export interface FacetPoolOffer {
  key: string;
  maxSelected?: number;
  candidates: readonly { id: string; description: string; text: string }[];
}

/** How far a running call has come, as its tool reports it (an MCP server's progress notifications). */
export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * What a call answers the model, and whether it succeeded. It is written as its text alone (transcript, request): a
 * failure's text starts with `Error`, the spec's form, and outcome.ts's readResult reads it back as this type.
 */
export interface ToolResult {
  kind: 'result';
  ok: boolean;
  content: string;
  /**
   * What the person sees in its place when `content` is shortened for the model (a writing tool's whole diff, itself
   * capped at DISPLAY_MAX_CHARS). Kept in the log for the chat; the transcript and the model never get it.
   */
  display?: string;
  /** The call was denied, not run: how the UI words it (`content` is the model's text). Kept in the log for the chat. */
  denial?: ToolCallDenial;
  /**
   * Images or audio the result carries besides its text (an MCP tool's content), which `content` describes. A model
   * whose profile takes them gets them as content parts after the results (JobRun.answer); any other gets the text.
   */
  media?: readonly ToolMedia[];
}

/** One image or audio clip of a tool result: base64 data of a type the chat API takes. */
export interface ToolMedia {
  kind: 'image' | 'audio';
  mimeType: string;
  data: string;
}

export type ToolOutcome =
  | ToolResult
  /** Park the job until a person decides (or, `browser`, acts and replies); the call is answered when it resumes. */
  | {
      kind: 'wait';
      toolRequest?: Omit<NewToolRequest, 'callId'>;
      packageRequest?: Omit<NewPackageRequest, 'callId'>;
      browser?: BrowserStep;
      /** Until the job's open subtasks have ended (wait_for_subtasks). */
      subtasks?: true;
      /**
       * Until the person signs in to (or saves a token for) an MCP server that refused the call's credentials; the
       * call did not run, and runs again on resume.
       */
      mcpAuth?: { server: string; message: string };
    };

/** A step the person does in their own browser. */
export interface BrowserStep {
  url: string;
  instruction: string;
}

export interface ToolDef<P = unknown> {
  name: string;
  description: string;
  parameters: z.ZodType<P>;
  /**
   * The model-facing JSON schema, given verbatim instead of the one derived from `parameters` (an MCP tool carries its
   * server's schema; its `parameters` then only check that the arguments are an object).
   */
  jsonSchema?: Readonly<Record<string, unknown>>;
  /** Read-only tools of one reply run concurrently; others run one by one in call order. */
  readOnly: boolean;
  /** false: a read-only tool whose answer depends on the movement, never answered from the run's tool cache. */
  cacheable?: boolean;
  /**
   * What its calls do beyond reading (none: read-only, or only the engine's own bookkeeping). A movement with
   * `edit: false` does not run a tool that needs `edit`.
   */
  needs?: readonly ToolNeed[];
  /**
   * The tool's own view of a call, before the Workspace Tool Policy's rule for its name (permission.ts): run it, ask
   * a person, or refuse it. Without one, a call runs unless the policy says otherwise.
   */
  review?(args: P, ctx: ToolContext): CallReview;
  /** Runs the call: the dispatcher has decided that it may (or a person approved it). */
  execute(args: P, ctx: ToolContext): Promise<ToolOutcome>;
}

/** What a call may do beyond reading files: edit them, run code, reach the network, act outside the machine. */
export type ToolNeed = 'edit' | 'run' | 'network' | 'external';

export type CallReview =
  /**
   * `askSummary`: what a card shows should the Workspace Tool Policy ask before the call anyway (an edit's diff),
   * worked out only then.
   */
  | { kind: 'run'; askSummary?: () => string }
  /**
   * Ask a person, showing `summary` (and `display`, for the UI to word). `always`: whatever the policy or a task grant
   * says (outside the sandbox).
   */
  | { kind: 'ask'; summary: string; display?: ToolRequestDisplay; always?: boolean }
  | { kind: 'refuse'; message: string };

// biome-ignore lint/suspicious/noExplicitAny: a registry holds tools of every parameter type.
export type AnyToolDef = ToolDef<any>;
