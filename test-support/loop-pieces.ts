// Test support for the loop guards' tests: a workspace whose piece ping-pong goes a → b → a … with the given limits,
// each movement's instruction showing TAKT's {iteration}, {max_steps} and {step_iteration}.
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from './temp-maestro';

export function pingPongWorkspace(limits: { maxMovements: number; revisitLimit: number; maxIterations?: number }) {
  const ws = tempDir('maestro-ws-');
  const movement = (name: string, to: string) => `
  - name: ${name}
    max_iterations: ${limits.maxIterations ?? 40}
    instruction: "Step {iteration} of {max_steps}, time {step_iteration} in ${name}."
    transitions:
      - to: ${to}`;
  fs.mkdirSync(path.join(ws, '.maestro', 'pieces'), { recursive: true });
  fs.writeFileSync(
    path.join(ws, '.maestro', 'pieces', 'ping-pong.yaml'),
    `id: ping-pong\nname: Ping pong\nstart_movement: a\nmax_movements: ${limits.maxMovements}\n` +
      `revisit_limit: ${limits.revisitLimit}\nmovements:${movement('a', 'b')}${movement('b', 'a')}\n`,
  );
  return ws;
}
