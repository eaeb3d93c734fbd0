// The bench's own settings files (its pieces) in its workspace, accepted as a person would on their cards: settings
// the agent can write apply only in an accepted version.
import fs from 'node:fs';
import type { Maestro } from '../src-main/app/create-maestro';

export function acceptBenchSettings(maestro: Maestro, workspace: string): void {
  const folder = fs.realpathSync(workspace);
  for (const change of maestro.ctx.accepted.changes(folder))
    maestro.ctx.accepted.record(folder, change.file, change.current);
}
