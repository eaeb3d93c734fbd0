// Migration 8: the chat reads a task's recorded AgentTurns (the steps) by time, and each step's tool answers and
// LlmCalls by the turn they belong to (ToolTurn entries now point at their AgentTurn through agent_turn_seq).
// Frozen: never edited after it ships; a change is a new migration.

export const version = 8;
export const name = 'chat-steps';

export const sql = `
  CREATE INDEX log_entries_steps ON log_entries(task_id, ts) WHERE kind = 'AgentTurn' AND body IS NOT NULL;
  CREATE INDEX log_entries_by_turn ON log_entries(agent_turn_seq) WHERE agent_turn_seq IS NOT NULL;
  `;
