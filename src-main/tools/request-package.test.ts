import { describe, expect, it } from 'vitest';
import { tempWorkspace, text } from '../../test-support/tools';
import { checkPackage } from './package-names';
import { requestPackageTool } from './request-package';

describe('request_package (P4.55)', () => {
  it('parks the job with a package request', async () => {
    const t = tempWorkspace();
    expect(
      await requestPackageTool.execute(
        { manager: 'npm', name: '@types/node', version: '^20.1.0', reason: 'types' },
        t.ctx(),
      ),
    ).toEqual({
      kind: 'wait',
      packageRequest: { manager: 'npm', name: '@types/node', version: '^20.1.0', reason: 'types' },
    });
    expect(await requestPackageTool.execute({ manager: 'pip', name: 'requests', reason: 'http' }, t.ctx())).toEqual({
      kind: 'wait',
      packageRequest: { manager: 'pip', name: 'requests', version: null, reason: 'http' },
    });
  });

  it('refuses names and versions outside the registry rules, and shell metacharacters', async () => {
    const t = tempWorkspace();
    for (const [manager, name, version] of [
      ['npm', 'left-pad; rm -rf ~', undefined],
      ['npm', 'Left-Pad', undefined],
      ['npm', '-g', undefined],
      ['npm', '.hidden', undefined],
      ['npm', 'ok', '1.0 || rm'],
      ['npm', 'ok', '$(id)'],
      ['pip', 'requests>=2', undefined],
      ['pip', 'requests', '>=2.0'],
      ['pip', '-e', undefined],
      ['pip', 'a b', undefined],
    ] as const) {
      const out = await requestPackageTool.execute({ manager, name, version, reason: 'r' }, t.ctx());
      expect(text(out)).toMatch(/^Error: request_package: (name|version): /);
    }
    expect(checkPackage('npm', 'lodash.merge', '4.x')).toBeNull();
    expect(checkPackage('pip', 'Django', '5.0.1')).toBeNull();
    expect(checkPackage('pip', 'zope.interface', '6.0.post1')).toBeNull();
  });
});
