// The built-in tools as the model sees them (bridge-api.md's table) and as the Workspace Tool Policy resolves them.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tempWorkspace } from '../../test-support/tools';
import { specOf } from '../engine/tool-specs';
import { ConfigFileError } from '../workspace/json-file';
import { builtinTools } from './builtins';
import { loadPolicy, resolveTools } from './policy';

const schema = (t: { parameters: z.ZodType }) =>
  z.toJSONSchema(t.parameters, { io: 'input' }) as {
    properties: Record<string, { description?: string; enum?: string[] }>;
    required?: string[];
  };

describe('builtinTools (bridge-api table contract)', () => {
  it('names in table order; read-only flags; arguments exactly as the table says', () => {
    const tools = builtinTools();
    expect(tools.map((t) => [t.name, t.readOnly])).toEqual([
      ['read_file', true],
      ['list_dir', true],
      ['glob', true],
      ['grep', true],
      ['write_file', false],
      ['edit_file', false],
      ['run_command', false],
      ['request_package', false],
    ]);
    const args = Object.fromEntries(
      tools.map((t) => {
        const s = schema(t);
        return [t.name, { all: Object.keys(s.properties), required: s.required ?? [] }];
      }),
    );
    expect(args).toEqual({
      read_file: { all: ['path', 'offset', 'limit'], required: ['path'] },
      list_dir: { all: ['path'], required: ['path'] },
      glob: { all: ['pattern'], required: ['pattern'] },
      grep: { all: ['pattern', 'path', 'glob'], required: ['pattern'] },
      write_file: { all: ['path', 'content'], required: ['path', 'content'] },
      edit_file: {
        all: ['path', 'old_string', 'new_string', 'replace_all'],
        required: ['path', 'old_string', 'new_string'],
      },
      run_command: {
        // The table's three, two optional ones of the OS sandbox (issue 13): the hosts it needs, and outside it; and
        // the SSH target it runs on (issue 26, P2.18).
        all: ['command', 'cwd', 'timeout_ms', 'network', 'outside_sandbox', 'target'],
        required: ['command'],
      },
      request_package: { all: ['manager', 'name', 'version', 'reason'], required: ['manager', 'name', 'reason'] },
    });
    expect(schema(tools[7] as (typeof tools)[number]).properties.manager?.enum).toEqual(['npm', 'pip']);
  });

  it('every argument is described; descriptions start with one short sentence and hold no paths or dates', () => {
    for (const t of builtinTools()) {
      for (const [name, p] of Object.entries(schema(t).properties))
        expect(p.description, `${t.name}.${name}`).toBeTruthy();
      const first = t.description.split('. ')[0] as string;
      expect(first.length, t.name).toBeLessThan(100);
      expect(t.description).not.toMatch(/\/(tmp|home|Users|work)\b|\d{4}-\d{2}-\d{2}/);
    }
  });

  it('schemas and descriptions are byte-stable across jobs, policies and grants', () => {
    const t = tempWorkspace();
    fs.mkdirSync(path.join(t.ws, '.maestro'));
    fs.writeFileSync(
      path.join(t.ws, '.maestro', 'policy.json'),
      JSON.stringify({ run_command: { allow: ['npm test'] } }),
    );
    const render = (tools: ReturnType<typeof builtinTools>) =>
      JSON.stringify(tools.map((x) => [x.name, x.description, schema(x)]));
    const a = render(builtinTools());
    expect(render(resolveTools(loadPolicy(t.ws), []))).toBe(a);
    expect(
      render(resolveTools(loadPolicy(t.ws), [{ tool: 'run_command', kind: 'tool', target: null, rule: null }])),
    ).toBe(a);
  });

  it("P2.18 run_command always has `target`; its enum is the policy's SSH targets sorted, byte-stable across loads and grants (spec 3.4)", () => {
    const t = tempWorkspace();
    fs.mkdirSync(path.join(t.ws, '.maestro'));
    const target = (host: string) => ({ host, user: 'me', hostKey: `SHA256:${'A'.repeat(43)}` });
    const write = (targets: Record<string, unknown>) =>
      fs.writeFileSync(path.join(t.ws, '.maestro', 'policy.json'), JSON.stringify({ ssh: { targets } }));
    const spec = (tools: ReturnType<typeof builtinTools>) =>
      JSON.stringify(specOf(tools.find((x) => x.name === 'run_command') as (typeof tools)[number]));
    const none = spec(builtinTools());
    const noneParsed = JSON.parse(none).function.parameters.properties.target;
    expect(noneParsed).toEqual({ type: 'string', description: expect.stringMatching(/^The SSH target/) });

    write({ zeta: target('z.example'), alpha: target('a.example'), mid: target('m.example') });
    const a = spec(resolveTools(loadPolicy(t.ws), []));
    expect(JSON.parse(a).function.parameters.properties.target).toEqual({
      ...noneParsed,
      enum: ['alpha', 'mid', 'zeta'],
    });
    // The same targets written in another order, or a grant of the task: the same bytes.
    write({ mid: target('m.example'), alpha: target('a.example'), zeta: target('z.example') });
    expect(spec(resolveTools(loadPolicy(t.ws), []))).toBe(a);
    expect(
      spec(resolveTools(loadPolicy(t.ws), [{ tool: 'run_command', kind: 'tool', target: null, rule: null }])),
    ).toBe(a);
    // Only the enum differs from the schema without targets.
    const stripped = JSON.parse(a);
    delete stripped.function.parameters.properties.target.enum;
    expect(JSON.stringify(stripped)).toBe(none);
  });

  it('P2.18 a policy whose SSH target is malformed names the field; nothing else in the file is applied', () => {
    const t = tempWorkspace();
    fs.mkdirSync(path.join(t.ws, '.maestro'));
    const cases: [unknown, RegExp][] = [
      [{ host: 'h', user: 'me', hostKey: 'not a key' }, /ssh\.targets\.box\.hostKey: hostKey must be the host's key/],
      [{ host: 'h', user: 'me' }, /ssh\.targets\.box\.hostKey/],
      [{ host: 'me@h', user: 'me', hostKey: `SHA256:${'A'.repeat(43)}` }, /ssh\.targets\.box\.host: /],
      [{ host: 'h', user: 'me', port: 0, hostKey: `SHA256:${'A'.repeat(43)}` }, /ssh\.targets\.box\.port/],
      [{ host: 'h', user: 'me', hostKey: `SHA256:${'A'.repeat(43)}`, password: 'x' }, /ssh\.targets\.box/],
      // A line whose key type and blob disagree was pasted together wrong.
      [
        {
          host: 'h',
          user: 'me',
          hostKey: 'ssh-rsa AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl',
        },
        /hostKey/,
      ],
    ];
    for (const [box, message] of cases) {
      fs.writeFileSync(
        path.join(t.ws, '.maestro', 'policy.json'),
        JSON.stringify({ run_command: { allow: ['*'] }, ssh: { targets: { box } } }),
      );
      expect(() => loadPolicy(t.ws)).toThrow(message);
    }
    fs.writeFileSync(
      path.join(t.ws, '.maestro', 'policy.json'),
      JSON.stringify({
        ssh: { targets: { 'bad name': { host: 'h', user: 'me', hostKey: `SHA256:${'A'.repeat(43)}` } } },
      }),
    );
    expect(() => loadPolicy(t.ws)).toThrow(/target name/);
    const good = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl';
    fs.writeFileSync(
      path.join(t.ws, '.maestro', 'policy.json'),
      JSON.stringify({ ssh: { targets: { box: { host: 'h', user: 'me', hostKey: `[h]:2222 ${good} me@h` } } } }),
    );
    expect(loadPolicy(t.ws).sshTargets).toMatchObject([
      { name: 'box', port: 22, hostKey: { kind: 'key', type: 'ssh-ed25519' } },
    ]);
  });

  it('a broken policy file throws the config-file error', () => {
    const t = tempWorkspace();
    fs.mkdirSync(path.join(t.ws, '.maestro'));
    fs.writeFileSync(path.join(t.ws, '.maestro', 'policy.json'), '{"tools":{"deny":"all"}}');
    expect(() => resolveTools(loadPolicy(t.ws), [])).toThrow(ConfigFileError);
  });
});
