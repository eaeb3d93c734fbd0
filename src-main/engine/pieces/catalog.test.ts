import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PIECES_DIR, tempDir } from '../../../test-support/temp-maestro';
import { loadPieceFile, PieceCatalog } from './catalog';
import { transitionTargets } from './schema';

function pieceFile(text: string, name = 'p.yaml'): string {
  const dir = tempDir();
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

describe('Piece files', () => {
  it('P1.29 the built-in pieces load: default, plan-implement-review, ask-first', () => {
    const { pieces, errors } = new PieceCatalog(PIECES_DIR).load();
    expect(errors).toEqual([]);
    expect(pieces.map((p) => p.id)).toEqual(['ask-first', 'default', 'plan-implement-review']);
    const pir = pieces.find((p) => p.id === 'plan-implement-review');
    expect(pir?.startMovement).toBe('plan');
    expect(pir && transitionTargets(pir)).toEqual(['implement', 'review']);
    expect(pieces.find((p) => p.id === 'default')?.movements.map((m) => m.transitions.length)).toEqual([0]);
  });

  it('a transition to a movement that does not exist is rejected at load time, naming file, line and field', () => {
    const file = pieceFile(`id: broken
name: Broken
movements:
  - name: a
    transitions:
      - to: nowhere
`);
    const loaded = loadPieceFile(file, 'workspace');
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.error.file).toBe(file);
    expect(loaded.error.message).toBe(
      'movements.0.transitions.0.to (line 6): names no movement of this piece (movements: a)',
    );
  });

  it('YAML syntax errors name the line; unknown fields and tools name the field', () => {
    const syntax = loadPieceFile(pieceFile('id: x\nname: [unclosed\n'), 'workspace');
    expect(!syntax.ok && syntax.error.message).toMatch(/^line \d+: /);
    const unknown = loadPieceFile(pieceFile('id: x\nname: X\nmovemnts: []\nmovements:\n  - name: a\n'), 'workspace');
    expect(!unknown.ok && unknown.error.message).toMatch(/movemnts/);
    const tool = loadPieceFile(pieceFile('id: x\nname: X\nmovements:\n  - name: a\n    tools: [rm_rf]\n'), 'workspace');
    expect(!tool.ok && tool.error.message).toMatch(/^movements\.0\.tools\.0 \(line 5\): unknown tool rm_rf/);
    const start = loadPieceFile(pieceFile('id: x\nname: X\nstart_movement: b\nmovements:\n  - name: a\n'), 'workspace');
    expect(!start.ok && start.error.message).toMatch(/^start_movement \(line 3\): names no movement/);
    const dup = loadPieceFile(pieceFile('id: x\nname: X\nmovements:\n  - name: a\n  - name: a\n'), 'workspace');
    expect(!dup.ok && dup.error.message).toMatch(/^movements\.1\.name.*a appears twice/);
  });

  it('P1.29 workspace pieces override built-ins by id; broken ones are listed as errors', () => {
    const ws = tempDir();
    fs.mkdirSync(path.join(ws, '.maestro', 'pieces'), { recursive: true });
    fs.writeFileSync(
      path.join(ws, '.maestro', 'pieces', 'default.yaml'),
      'id: default\nname: Mine\nmovements:\n  - name: only\n',
    );
    fs.writeFileSync(path.join(ws, '.maestro', 'pieces', 'bad.yaml'), 'id: Bad Id\nname: x\nmovements: []\n');
    const { pieces, errors } = new PieceCatalog(PIECES_DIR).load(ws);
    expect(pieces.find((p) => p.id === 'default')).toMatchObject({ name: 'Mine', source: 'workspace' });
    expect(errors).toHaveLength(1);
    expect(errors[0]?.file).toBe(path.join(ws, '.maestro', 'pieces', 'bad.yaml'));
  });
});

describe('Piece files: instruction, loop checks and unbounded budgets (MAESTRO format too)', () => {
  it('a movement instruction, loop_monitors naming its movements, max_movements: infinite', () => {
    const loaded = loadPieceFile(
      pieceFile(`id: loop
name: Loop
max_movements: infinite
movements:
  - name: work
    instruction: Do {task}
    transitions: [{ to: check }]
  - name: check
    transitions: [{ to: work }]
  - name: judge
loop_monitors:
  - cycle: [work, check]
    threshold: 3
    judge: judge
`),
      'workspace',
    );
    if (!loaded.ok || !loaded.piece) throw new Error(JSON.stringify(loaded));
    expect(loaded.piece).toMatchObject({
      maxMovements: Infinity,
      loopMonitors: [{ cycle: ['work', 'check'], ignore: [], threshold: 3, judge: 'judge' }],
    });
    expect(loaded.piece.movements[0]?.instruction).toBe('Do {task}');
    const wrong = loadPieceFile(
      pieceFile(
        'id: x\nname: X\nmovements:\n  - name: a\nloop_monitors:\n  - cycle: [a, b]\n    threshold: 2\n    judge: a\n',
      ),
      'workspace',
    );
    expect(!wrong.ok && wrong.error.message).toMatch(/^loop_monitors\.0\.cycle\.1 \(line 6\): names no movement/);
  });
});
