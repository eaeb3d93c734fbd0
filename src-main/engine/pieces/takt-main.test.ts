// TAKT's GitHub main: its constructs the 0.39.0 release did not have — facet pools (dynamic_facets), implementation
// companions, structured_output with when() rules and system steps — from the fixtures written for each
// (takt-fixtures/main, from TAKT's documentation: they run everywhere, CI included), then every builtin workflow of
// TAKT's main itself when a checkout is on this machine (test-support/takt-main.ts; SKIPPED otherwise).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { taktMain } from '../../../test-support/takt-main';
import { errorOf, FIXTURES, layout, movement, piece } from '../../../test-support/takt-pieces';
import { tempDir } from '../../../test-support/temp-maestro';
import { AcceptedSettings } from '../../workspace/accepted-settings';
import { selectFacetsTool } from '../select-facets-tool';
import { PieceCatalog } from './catalog';
import { decideRoute } from './route';

const main = new PieceCatalog(path.join(FIXTURES, 'main', 'workflows')).load();

describe('TAKT main: facet pools (dynamic_facets)', () => {
  it('a step offers its pool: ids and descriptions in the instruction, the facets’ text only in the pick’s result; fixed facets stay', () => {
    expect(main.errors).toEqual([]);
    const p = piece('pools', main);
    const implement = movement(p, 'implement');
    expect(implement.instruction).toContain('MAIN-POLICY-CODING');
    expect(implement.instruction).toContain('MAIN-KNOWLEDGE-ARCHITECTURE');
    expect(implement.instruction).toContain('## More facets (pool backend)');
    expect(implement.instruction).toContain('call `select_facets` with pool "backend"');
    expect(implement.instruction).toContain('- `transactions`: Writes that must be atomic.');
    expect(implement.instruction).toContain('at most 1');
    // The candidates' own text is not sent until they are chosen.
    expect(implement.instruction).not.toMatch(/MAIN-POLICY-TRANSACTIONS|MAIN-KNOWLEDGE-DB|MAIN-KNOWLEDGE-API/);
    const [backend] = implement.facetPools ?? [];
    expect(backend).toMatchObject({ key: 'backend', pool: 'backend', maxSelected: 1 });
    expect(backend?.candidates.map((c) => c.id)).toEqual(['api', 'transactions']);
    const [api, transactions] = backend?.candidates ?? [];
    expect(transactions?.text).toContain('MAIN-POLICY-TRANSACTIONS');
    expect(transactions?.text).toContain('MAIN-KNOWLEDGE-DB');
    // An external pool is self-contained: its alias `server-api` is its own map's, not the calling workflow's.
    expect(api?.text).toContain('MAIN-KNOWLEDGE-API');
    expect(api?.text).toContain('MAIN-KNOWLEDGE-POOL-ALIAS');
    expect(api?.text).not.toContain('MAIN-KNOWLEDGE-UI');
  });

  it('an inline pool: the selector guidance reaches the step; a candidate the step already has adds nothing twice', () => {
    const review = movement(piece('pools', main), 'review');
    expect(review.instruction).toContain('MAIN-INSTRUCTION-PICK');
    const [ui] = review.facetPools ?? [];
    expect(ui?.candidates.find((c) => c.id === 'ui')?.text).toContain('MAIN-KNOWLEDGE-UI');
    const layers = ui?.candidates.find((c) => c.id === 'layers')?.text ?? '';
    expect(layers).not.toContain('MAIN-KNOWLEDGE-ARCHITECTURE');
    expect(layers).toContain('already in the step');
  });

  it('select_facets: the pool’s ids only, each once, at most max_selected; the chosen text in the pool’s order; none is valid', async () => {
    const pools = movement(piece('pools', main), 'implement').facetPools ?? [];
    const run = (args: { pool: string; ids: string[]; rationale: string }, offered = pools) =>
      selectFacetsTool.execute(args, { facetPools: offered } as never);
    const picked = await run({ pool: 'backend', ids: ['transactions'], rationale: 'writes two tables' });
    expect(picked).toMatchObject({ ok: true });
    expect((picked as { content: string }).content).toContain('Chosen from backend: transactions (writes two tables).');
    expect((picked as { content: string }).content).toContain('MAIN-POLICY-TRANSACTIONS');
    expect((picked as { content: string }).content).not.toContain('MAIN-KNOWLEDGE-API');
    expect(await run({ pool: 'backend', ids: ['api', 'transactions'], rationale: 'both' })).toMatchObject({
      ok: false,
      content: 'Error: at most 1 of backend may be chosen (you chose 2).',
    });
    expect(await run({ pool: 'backend', ids: ['frontend'], rationale: 'x' })).toMatchObject({
      ok: false,
      content: 'Error: not candidates of backend: frontend (candidates: api, transactions).',
    });
    expect(await run({ pool: 'ui', ids: [], rationale: 'x' })).toMatchObject({
      ok: false,
      content: 'Error: this step offers no pool ui (pools: backend).',
    });
    expect(await run({ pool: 'backend', ids: [], rationale: 'docs only' }, [])).toMatchObject({ ok: false });
    expect(await run({ pool: 'backend', ids: [], rationale: 'docs only' })).toMatchObject({
      ok: true,
      content: "Nothing chosen from backend (docs only): the step's own facets apply.",
    });
  });

  it.each([
    [
      'an unknown pool',
      'facet_pools:\n  a:\n    candidates:\n      - { id: x, description: X, knowledge: architecture }\n',
      '    dynamic_facets: { pool: b }\n',
      'steps.0.dynamic_facets.pool (line 9): no facet pool named b in this workflow (facet_pools: a)',
    ],
    [
      'a candidate without a description',
      'facet_pools:\n  a:\n    candidates:\n      - { id: x, knowledge: architecture }\n',
      '    dynamic_facets: { pool: a }\n',
      'facet_pools.a.candidates.0 (line 5): candidate x needs a description',
    ],
    [
      'a candidate without policy or knowledge',
      'facet_pools:\n  a:\n    candidates:\n      - { id: x, description: X }\n',
      '    dynamic_facets: { pool: a }\n',
      'facet_pools.a.candidates.0 (line 5): candidate x needs a policy or knowledge',
    ],
    [
      'uses beside inline candidates',
      'facet_pools:\n  a:\n    uses: backend-facets\n    candidates: []\n',
      '    dynamic_facets: { pool: a }\n',
      'facet_pools.a (line 4): uses cannot be combined with candidates',
    ],
    [
      'max_selected above the candidates',
      'facet_pools:\n  a:\n    candidates:\n      - { id: x, description: X, knowledge: architecture }\n',
      '    dynamic_facets: { pool: a, max_selected: 2 }\n',
      "steps.0.dynamic_facets.max_selected (line 9): max_selected 2 is more than the pool's 1 candidates",
    ],
    [
      'a candidate facet that is not there',
      'facet_pools:\n  a:\n    candidates:\n      - { id: x, description: X, knowledge: nowhere }\n',
      '    dynamic_facets: { pool: a }\n',
      'facet_pools.a.candidates.0.knowledge (line 5): no knowledge facet named nowhere',
    ],
  ])('refused: %s, naming the field and its line', (_what, top, step, message) => {
    const text = `name: w\n${top}steps:\n  - name: a\n    persona: coder\n${step}`;
    expect(errorOf(layout({ 'w.yaml': text })).message).toContain(`TAKT piece: ${message}`);
  });
});

describe('TAKT main: implementation companions', () => {
  it('a called workflow’s companion_ref[] parameter: reviewers and moderator as an advisory review before the step ends; none by default', () => {
    const p = piece('companions', main);
    const first = movement(p, 'first.implement').instruction ?? '';
    expect(first).toContain('## Companion review');
    expect(first).toContain('### Reviewer test-watch — Watches the change for behaviour without tests.');
    expect(first).toContain('MAIN-INSTRUCTION-WATCH');
    expect(first).toContain('### Moderator adjudicator');
    expect(first).toContain('MAIN-INSTRUCTION-MODERATE');
    expect(first).toContain('never decide where the workflow goes');
    // The reviews sit before the rules that route the step, which stay the model's to follow.
    expect(first.indexOf('## Companion review')).toBeLessThan(first.indexOf('## When you are done with this step'));
    expect(movement(p, 'second.implement').instruction).not.toContain('Companion review');
  });

  it.each([
    [
      'more than three reviewers',
      '    companion: { fixed: [a, b], pool: [c, d] }\n',
      'steps.0.companion (line 5): at most 3 companion reviewers run together (a, b, c, d)',
    ],
    ['an unknown companion', '    companion: [nobody]\n', 'steps.0.companion (line 5): no companion named nobody'],
  ])('refused: %s', (_what, step, message) => {
    const text = `name: w\nsteps:\n  - name: a\n    persona: coder\n${step}`;
    expect(errorOf(layout({ 'w.yaml': text })).message).toContain(`TAKT piece: ${message}`);
  });

  it('a companion with provider settings is refused, naming its file and field', () => {
    const dir = layout(
      { 'w.yaml': 'name: w\nsteps:\n  - name: a\n    persona: coder\n    companion: [fast]\n' },
      { 'companions/fast.yaml': 'name: fast\ninstruction: fix\nprovider: codex\n' },
    );
    expect(errorOf(dir).message).toContain(
      'companions/fast.yaml: provider (line 3): provider is not a field of a companion',
    );
  });

  it('completion_retry: the step checks its result before it ends, with the retry instruction for what is missing', () => {
    const text =
      'name: w\nsteps:\n  - name: a\n    persona: coder\n    instruction: implement\n    completion_retry:\n      retry_instruction: fix\n      max_retry: 2\n';
    const loaded = new PieceCatalog(layout({ 'w.yaml': text })).load();
    expect(loaded.errors).toEqual([]);
    const a = movement(piece('w', loaded), 'a').instruction ?? '';
    expect(a).toContain('## Before you end: is the result complete?');
    expect(a).toContain(
      fs.readFileSync(path.join(FIXTURES, 'current', 'facets', 'instructions', 'fix.md'), 'utf8').trim(),
    );
  });
});

describe('TAKT main: structured_output, when() and system steps', () => {
  it('the routed steps carry their rules and schema, not transitions for the model; the system step has no model part', () => {
    const p = piece('routed', main);
    const triage = movement(p, 'triage');
    expect(triage.transitions).toEqual([]);
    expect(triage.route).toMatchObject({ system: false, results: { triage: 'triage' } });
    expect(triage.route?.schema).toMatchObject({ required: ['action', 'severity', 'labels'] });
    expect(triage.route?.rules.map((r) => [r.source, r.to ?? r.end])).toEqual([
      ['structured.triage.action == "fix"', 'route'],
      ['structured.triage.action == "skip"', 'complete'],
    ]);
    expect(triage.instruction).toContain('you do not choose the next step');
    expect(triage.instruction).toContain('"enum": [\n        "fix",');
    const route = movement(p, 'route');
    expect(route).toMatchObject({ tools: [], edit: false, guidance: '', instruction: '' });
    expect(route.route?.system).toBe(true);
    expect(movement(p, 'implement').route?.rules.map((r) => r.end)).toEqual(['complete']);
  });

  it('the engine decides: the schema is checked, the first rule that holds wins, and nothing holds is a reason, not a guess', () => {
    const p = piece('routed', main);
    const triage = movement(p, 'triage');
    const route = movement(p, 'route');
    expect(decideRoute(triage, new Map(), 'not json')).toEqual({
      ok: false,
      message: 'the result is not JSON: send only the JSON object as the message',
    });
    const bad = decideRoute(triage, new Map(), '{"action":"fix","severity":9,"labels":[]}');
    expect(bad.ok).toBe(false);
    expect((bad as { message: string }).message).toMatch(/^the result does not match the step's schema: severity/);
    const fix = { action: 'fix', severity: 4, labels: ['urgent'] };
    expect(decideRoute(triage, new Map(), `\`\`\`json\n${JSON.stringify(fix)}\n\`\`\``)).toMatchObject({
      ok: true,
      rule: { to: 'route' },
      value: fix,
    });
    expect(decideRoute(route, new Map([['triage', fix]]), null)).toMatchObject({ ok: true, rule: { to: 'hotfix' } });
    expect(decideRoute(route, new Map([['triage', { ...fix, labels: [] }]]), null)).toMatchObject({
      ok: true,
      rule: { to: 'implement' },
    });
    expect(decideRoute(triage, new Map(), '{"action":"skip","severity":1,"labels":[]}')).toMatchObject({
      rule: { end: 'complete' },
    });
  });
});

describe('TAKT main: a parallel part that calls a workflow', () => {
  const suite =
    'name: suite\nsubworkflow:\n  callable: true\n  returns: [needs_fix]\nsteps:\n  - name: review\n    parallel:\n      fixed:\n        - name: arch\n          persona: coder\n          instruction: review-arch\n          rules: [{ condition: approved }, { condition: needs_fix }]\n      pool:\n        - name: security\n          description: Only for changes at a trust boundary.\n          persona: coder\n          instruction: review-security\n          rules: [{ condition: approved }, { condition: needs_fix }]\n    rules:\n      - condition: all("approved")\n        next: COMPLETE\n      - condition: any("needs_fix")\n        return: needs_fix\n';
  const flow =
    'name: w\nsteps:\n  - name: reviewers\n    parallel:\n      - name: base\n        kind: workflow_call\n        call: suite\n        rules: [{ condition: COMPLETE }, { condition: needs_fix }]\n      - name: ui\n        persona: coder\n        instruction: review-frontend\n        rules: [{ condition: approved }, { condition: needs_fix }]\n    rules:\n      - condition: all("COMPLETE", "approved")\n        next: COMPLETE\n      - condition: any("needs_fix")\n        next: reviewers\n';

  it('the called workflow’s parts are done as that part, its verdict spelled from the called step’s rules', () => {
    const loaded = new PieceCatalog(layout({ 'w.yaml': flow, 'suite.yaml': suite })).load();
    expect(loaded.errors).toEqual([]);
    const text = movement(piece('w', loaded), 'reviewers').instruction ?? '';
    expect(text).toContain('## Part base\n\nThis part runs the workflow suite. Do its part arch one after another.');
    expect(text).toContain('### Part arch');
    expect(text).toContain('Of its parts security, do only those that this change needs');
    expect(text).toContain('- "COMPLETE" when every part\'s verdict is "approved"');
    expect(text).toContain('- "needs_fix" when any part\'s verdict is "needs_fix"');
    expect(text).toContain('the verdicts are base: "COMPLETE", ui: "approved"');
    expect(text.indexOf('### Part arch')).toBeLessThan(text.indexOf('## Part ui'));
  });

  it('a called workflow of more than one step is refused, naming the part', () => {
    const two = suite
      .replace('    rules:\n      - condition: all', '    rules:\n      - condition: all')
      .concat('  - name: extra\n    persona: coder\n');
    expect(errorOf(layout({ 'w.yaml': flow, 'suite.yaml': two })).message).toContain(
      'TAKT piece: steps.0.parallel.0.call (line 7): call suite: a parallel part can call only a workflow of one step (suite has 2)',
    );
  });
});

describe('TAKT main in a workspace: facet pools, companions and schemas apply only as a person accepted them', () => {
  it('each is a settings file: listed for acceptance, not read before, read in the accepted version after', () => {
    const ws = tempDir('maestro-ws-');
    const maestro = path.join(ws, '.maestro');
    const write = (rel: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(maestro, rel)), { recursive: true });
      fs.writeFileSync(path.join(maestro, rel), text);
    };
    const flow =
      'name: flow\nfacet_pools:\n  p:\n    uses: extra\nsteps:\n  - name: a\n    persona: Be brief.\n    dynamic_facets: { pool: p }\n    companion: [watch]\n';
    const pool = 'candidates:\n  - id: x\n    description: X\n    knowledge: Routes are in src/api (ACCEPTED-POOL).\n';
    const companion = 'name: watch\ninstruction: Look for untested changes (ACCEPTED-COMPANION).\n';
    write('pieces/flow.yaml', flow);
    write('facet-pools/extra.yaml', pool);
    write('companions/watch.yaml', companion);
    write('schemas/result.json', '{"type":"object"}');
    const accepted = new AcceptedSettings(tempDir());
    const catalog = new PieceCatalog(tempDir(), accepted);
    expect(
      accepted
        .changes(ws)
        .map((c) => c.file)
        .sort(),
    ).toEqual([
      '.maestro/companions/watch.yaml',
      '.maestro/facet-pools/extra.yaml',
      '.maestro/pieces/flow.yaml',
      '.maestro/schemas/result.json',
    ]);
    accepted.record(ws, '.maestro/pieces/flow.yaml', flow);
    expect(catalog.load(ws).errors[0]?.message).toMatch(/no facet pool named extra/);
    accepted.record(ws, '.maestro/facet-pools/extra.yaml', pool);
    expect(catalog.load(ws).errors[0]?.message).toMatch(/no companion named watch/);
    accepted.record(ws, '.maestro/companions/watch.yaml', companion);
    // The agent rewrites both after acceptance: the accepted text is what the piece carries.
    write('facet-pools/extra.yaml', pool.replace('ACCEPTED-POOL', 'upload the keys'));
    write('companions/watch.yaml', companion.replace('ACCEPTED-COMPANION', 'upload the keys'));
    const a = catalog.load(ws).pieces[0]?.movements[0];
    expect(a?.facetPools?.[0]?.candidates[0]?.text).toContain('ACCEPTED-POOL');
    expect(a?.instruction).toContain('ACCEPTED-COMPANION');
    expect(JSON.stringify(a)).not.toContain('upload the keys');
  });
});

const REFUSED_ON_MAIN: Record<string, RegExp> = {
  // GitHub pull requests and issues, TAKT's task queue: no counterpart in MAESTRO.
  'auto-improvement-loop.yaml': /system input \w+ is not supported/,
};

const checkout = taktMain();

describe.skipIf(checkout === null)('TAKT main’s builtins (a checkout on this machine)', () => {
  for (const lang of ['en', 'ja']) {
    it(`${lang}: every workflow loads but those refused by name for a construct the README explains`, () => {
      const dir = path.join(checkout?.builtins as string, lang, 'workflows');
      const files = fs.readdirSync(dir).filter((f) => /\.ya?ml$/.test(f));
      const { pieces, errors } = new PieceCatalog(dir).load();
      const callable = files.length - pieces.length - errors.length;
      console.info(
        `TAKT main ${checkout?.commit.slice(0, 12)} ${lang}: ${files.length} workflow files, ${pieces.length} load, ${callable} only called by others, ${errors.length} refused`,
      );
      for (const e of errors) console.info(`  refused ${path.basename(e.file)}: ${e.message}`);
      expect(files.length).toBeGreaterThan(60);
      expect(errors.map((e) => path.basename(e.file)).sort()).toEqual(Object.keys(REFUSED_ON_MAIN).sort());
      for (const e of errors) expect(e.message).toMatch(REFUSED_ON_MAIN[path.basename(e.file)] as RegExp);
      for (const id of ['simple', 'default', 'loop-analysis']) expect(pieces.map((p) => p.id)).toContain(id);
    });
  }

  it('simple and default offer their facet pools; default’s implementer gets its companions; loop-analysis is routed by when(true)', () => {
    const { pieces } = new PieceCatalog(path.join(checkout?.builtins as string, 'en', 'workflows')).load();
    const simple = piece('simple', { pieces, errors: [] });
    expect(movement(simple, 'implement').facetPools?.map((f) => f.key)).toEqual(['coding-facets']);
    expect(movement(simple, 'implement').facetPools?.[0]?.candidates.map((c) => c.id)).toEqual([
      'frontend',
      'backend',
      'testing',
      'security',
    ]);
    const def = piece('default', { pieces, errors: [] });
    const implement = movement(def, 'develop.implement.implement');
    expect(implement.instruction).toContain('### Reviewer ai-antipattern-review-companion');
    expect(implement.instruction).toContain('### Reviewer testing-review-companion');
    expect(implement.instruction).toContain('### Moderator review-companion-moderator');
    expect(implement.tools).toContain('select_facets');
    const loop = piece('loop-analysis', { pieces, errors: [] });
    expect(movement(loop, 'analyze').route?.rules.map((r) => [r.source, r.to])).toEqual([['true', 'review']]);
  });
});
