// TAKT's own released workflows, not fixtures of ours: the builtins of the takt package on npm (fetched with `npm
// pack` into node_modules/.cache on first run; never committed), in English and Japanese, loaded by our catalog.
// Every workflow loads but the one whose system steps read GitHub and TAKT's task queue (refused, naming the system
// input and the line);
// each step's persona and instruction facets reach its movement as their text, never as bare names; every step TAKT
// lets edit can edit here.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { call, complete, engineHarness, SETTLED, transition } from '../../../test-support/engine-harness';
import type { RecordedRequest } from '../../../test-support/scripted-llm-server';
import { tempDir } from '../../../test-support/temp-maestro';
import { PieceCatalog } from './catalog';

const VERSION = '0.39.0';
const CACHE = path.join(__dirname, '../../../node_modules/.cache', `takt-${VERSION}`);
/** Refused by design, with the construct named (pieces/README.md says why). */
const REFUSED: Record<string, RegExp> = { 'auto-improvement-loop.yaml': /system input \w+ is not supported/ };

/** The package's builtins folder, fetched once; null when the registry cannot be reached (the test says so). */
function builtins(): string | null {
  const dir = path.join(CACHE, 'package', 'builtins');
  if (fs.existsSync(dir)) return dir;
  try {
    fs.mkdirSync(CACHE, { recursive: true });
    const tarball = execFileSync('npm', ['pack', `takt@${VERSION}`, '--silent', '--pack-destination', CACHE], {
      encoding: 'utf8',
      timeout: 120_000,
    }).trim();
    execFileSync('tar', ['-xzf', path.join(CACHE, tarball), '-C', CACHE, 'package/builtins']);
    return dir;
  } catch (error) {
    console.warn(`SKIPPED: TAKT ${VERSION}'s builtins could not be fetched with npm pack: ${(error as Error).message}`);
    return null;
  }
}

const root = builtins();

interface TaktStep {
  name: string;
  persona?: string;
  instruction?: string;
  edit?: boolean;
  required_permission_mode?: string;
  team_leader?: { part_edit?: boolean };
}

/** A facet file's first line of text (a heading or a sentence), which the movement must carry. */
function facetLine(lang: string, kind: string, name: string): string | null {
  const file = path.join(root ?? '', lang, 'facets', kind, `${name}.md`);
  if (!fs.existsSync(file)) return null;
  return (
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.length > 0 && l !== '---') ?? null
  );
}

describe.skipIf(root === null)(`TAKT ${VERSION}'s released builtins`, () => {
  for (const lang of ['en', 'ja']) {
    it(`${lang}: every workflow loads but the refused one, which names its construct and line`, () => {
      const dir = path.join(root as string, lang, 'workflows');
      const files = fs.readdirSync(dir).filter((f) => /\.ya?ml$/.test(f));
      const { pieces, errors } = new PieceCatalog(dir).load();
      expect(files.length).toBeGreaterThan(40);
      expect(errors.map((e) => path.basename(e.file)).sort()).toEqual(Object.keys(REFUSED).sort());
      for (const e of errors) {
        expect(e.message).toMatch(REFUSED[path.basename(e.file)] as RegExp);
        expect(e.message).toMatch(/\(line \d+\)/);
      }
      // Callable-only workflows (workflow_call targets) are inlined where they are called, not listed.
      expect(pieces.length + errors.length).toBeLessThanOrEqual(files.length);
      expect(pieces.length).toBeGreaterThan(files.length - 5);
    });

    it(`${lang}: persona and instruction facets reach the model as their text; every editing step can edit`, () => {
      const dir = path.join(root as string, lang, 'workflows');
      const { pieces } = new PieceCatalog(dir).load();
      let personas = 0;
      let instructions = 0;
      let editing = 0;
      for (const piece of pieces) {
        const raw = YAML.parse(fs.readFileSync(piece.file, 'utf8')) as { steps?: TaktStep[]; movements?: TaktStep[] };
        for (const step of raw.steps ?? raw.movements ?? []) {
          const movement = piece.movements.find((m) => m.name === step.name);
          if (!movement) continue;
          const where = `${piece.id}/${step.name}`;
          expect(movement.guidance.trim(), where).not.toBe('');
          const persona = step.persona ? facetLine(lang, 'personas', step.persona) : null;
          if (persona) {
            expect(movement.guidance, where).toContain(persona);
            personas++;
          }
          const instruction = step.instruction ? facetLine(lang, 'instructions', step.instruction) : null;
          if (instruction) {
            expect(movement.instruction ?? '', where).toContain(instruction);
            instructions++;
          }
          // A facet's bare name is never a line of what the model reads.
          for (const name of [step.persona, step.instruction].filter(Boolean)) {
            const lines = `${movement.guidance}\n${movement.instruction ?? ''}`.split('\n').map((l) => l.trim());
            expect(lines, where).not.toContain(name);
          }
          const wants = step.team_leader
            ? (step.team_leader.part_edit ?? step.edit) === true
            : step.edit === true || ['edit', 'full'].includes(step.required_permission_mode ?? '');
          if (wants) {
            editing++;
            expect(movement.edit, where).toBe(true);
            const tools = movement.tools;
            expect(tools === null || tools.some((t) => t === 'edit_file' || t === 'write_file'), where).toBe(true);
          }
        }
      }
      // The release's steps name facets throughout: the checks above ran on many of them.
      expect(personas).toBeGreaterThan(100);
      expect(instructions).toBeGreaterThan(100);
      expect(editing).toBeGreaterThan(40);
    });
  }

  it('P3.12 P5.05 the release’s default workflow runs: the planner’s persona and the plan facet reach the model, the test-writing step writes a file', async () => {
    const en = path.join(root as string, 'en');
    const ws = tempDir('maestro-ws-');
    // A workspace's .maestro/ in TAKT's layout: the workflows as pieces, the facets beside them.
    fs.cpSync(path.join(en, 'workflows'), path.join(ws, '.maestro', 'pieces'), { recursive: true });
    fs.cpSync(path.join(en, 'facets'), path.join(ws, '.maestro', 'facets'), { recursive: true });
    const h = await engineHarness(
      [
        transition('write_tests', 'The plan: a test for add().'),
        call('write_file', { path: 'add.test.js', content: 'test("add", () => {});\n' }, 'w1'),
        complete('Tests written.'),
      ],
      { workspace: ws, policyTools: true },
    );
    const { jobId } = h.createTask('Add an add() function, test first', { pieceId: 'default' });
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'succeeded', result: 'Tests written.' });
    expect(fs.readFileSync(path.join(ws, 'add.test.js'), 'utf8')).toContain('test("add"');
    const text = (r: RecordedRequest | undefined) => JSON.stringify(r?.body?.messages ?? []);
    const [first, second] = h.server.requests;
    expect(text(first)).toContain('You are a **task analysis and design planning specialist**');
    expect(text(first)).toContain('Analyze the task and formulate an implementation plan including design decisions.');
    // The next step's coder persona and write-tests-first facet arrive with the transition; no facet as a bare word.
    expect(text(second)).toContain('You are the implementer.');
    expect(text(second)).toContain('Write tests based on the plan before implementing production code.');
    expect(text(second)).not.toMatch(/\\n(write-tests-first|coder|planner)\\n/);
  });
});
