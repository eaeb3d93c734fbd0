// The names of the built-in tools, in the order of the bridge-api table (a contract with pieces and transcripts).
export const BUILTIN_TOOL_NAMES = [
  'read_file',
  'list_dir',
  'glob',
  'grep',
  'write_file',
  'edit_file',
  'run_command',
  'request_package',
] as const;
export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

/** Tools the engine provides itself; a policy may deny them too. */
export const ENGINE_TOOL_NAMES = ['create_subtask', 'wait_for_subtasks', 'browser_handoff', 'delegate'] as const;

/** Sends to the workspace's remote agents (agents.json); a job gets it only when the workspace has some. */
export const A2A_SEND_TOOL = 'a2a_send';
/** Waits for a remote task a2a_send left running: a job has it exactly when it has a2a_send (no policy entry). */
export const A2A_WAIT_TOOL = 'a2a_wait';

/**
 * Picks more facets from a TAKT facet pool (engine/select-facets-tool.ts): a job has it exactly when its piece has a
 * movement with a pool (no policy entry: it reads only the piece's own text and changes nothing).
 */
export const SELECT_FACETS_TOOL = 'select_facets';

export const POLICY_TOOL_NAMES: readonly string[] = [...BUILTIN_TOOL_NAMES, ...ENGINE_TOOL_NAMES, A2A_SEND_TOOL];
