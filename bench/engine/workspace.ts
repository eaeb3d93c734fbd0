// The engine bench's workspace: two pieces, one movement that loops and two that hand the work back and forth.
import fs from 'node:fs';
import path from 'node:path';

export const LOOP_PIECE = 'bench-loop';
export const RELAY_PIECE = 'bench-relay';

function pieceYaml(maxIterations: number): Record<string, string> {
  return {
    [LOOP_PIECE]: `id: ${LOOP_PIECE}
name: Bench loop
description: One movement that reads until it is done.
movements:
  - name: work
    description: Read files.
    max_iterations: ${maxIterations}
    guidance: |
      Read the files one by one with probe_file, then call complete.
`,
    [RELAY_PIECE]: `id: ${RELAY_PIECE}
name: Bench relay
description: Two movements that hand the work back and forth.
max_movements: 1000
revisit_limit: 1000
movements:
  - name: gather
    description: Read files.
    max_iterations: ${maxIterations}
    guidance: |
      Read files with probe_file; after a batch, call transition with next "check".
    transitions:
      - to: check
        when: a batch was read
  - name: check
    description: Check what was read.
    max_iterations: ${maxIterations}
    guidance: |
      Check the batch with probe_file; then call transition with next "gather", or complete when all is read.
    transitions:
      - to: gather
        when: another batch is needed
`,
  };
}

/** A workspace under `root` whose pieces allow jobs of `iterations` LLM iterations. */
export function makeWorkspace(root: string, iterations: number): string {
  const workspace = path.join(root, 'workspace');
  const pieces = path.join(workspace, '.maestro', 'pieces');
  fs.mkdirSync(pieces, { recursive: true });
  for (const [id, yaml] of Object.entries(pieceYaml(Math.max(250, iterations + 50)))) {
    fs.writeFileSync(path.join(pieces, `${id}.yaml`), yaml);
  }
  fs.writeFileSync(path.join(workspace, 'README.md'), '# bench workspace\n');
  return workspace;
}
