// The built-in tools as the model sees them (bridge-api.md's table) and as the Workspace Tool Policy resolves them.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tempWorkspace } from '../../test-support/tools';
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
        // The table's three, and two optional ones of the OS sandbox (issue 13): the hosts it needs, and outside it.
        all: ['command', 'cwd', 'timeout_ms', 'network', 'outside_sandbox'],
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

  it('a broken policy file throws the config-file error', () => {
    const t = tempWorkspace();
    fs.mkdirSync(path.join(t.ws, '.maestro'));
    fs.writeFileSync(path.join(t.ws, '.maestro', 'policy.json'), '{"tools":{"deny":"all"}}');
    expect(() => resolveTools(loadPolicy(t.ws), [])).toThrow(ConfigFileError);
  });
});
