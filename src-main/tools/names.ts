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

export const POLICY_TOOL_NAMES: readonly string[] = [...BUILTIN_TOOL_NAMES, ...ENGINE_TOOL_NAMES];
