// The accepted versions of a workspace's settings files, read once per version of accepted-settings.json: every job
// start asks, so the file is parsed again only when it changed (by a decision here or by a hand behind our back).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../test-support/temp-maestro';
import { ACCEPTED_SETTINGS_FILE, AcceptedSettings, SETTINGS_FILES } from './accepted-settings';

const POLICY = SETTINGS_FILES.policy;

function setup() {
  const dataDir = tempDir();
  const workspace = tempDir('maestro-ws-');
  fs.mkdirSync(path.join(workspace, '.maestro'));
  fs.writeFileSync(path.join(workspace, POLICY), '{"a":1}');
  return { accepted: new AcceptedSettings(dataDir), file: path.join(dataDir, ACCEPTED_SETTINGS_FILE), workspace };
}

describe('AcceptedSettings reads its file once per version', () => {
  it('a decision made here is seen at once; the pending list follows it', () => {
    const { accepted, workspace } = setup();
    expect(accepted.changes(workspace).map((c) => c.file)).toContain(POLICY);
    accepted.record(workspace, POLICY, '{"a":1}');
    expect(accepted.accepted(workspace, POLICY)).toBe('{"a":1}');
    expect(accepted.changes(workspace).map((c) => c.file)).not.toContain(POLICY);
  });

  it('a file rewritten behind its back (same inode) is read again; an unchanged one is not', () => {
    const { accepted, file, workspace } = setup();
    accepted.record(workspace, POLICY, '{"a":1}');
    expect(accepted.accepted(workspace, POLICY)).toBe('{"a":1}');

    // Rewritten in place with other content: seen.
    const data = JSON.parse(fs.readFileSync(file, 'utf8'));
    data.workspaces[workspace][POLICY].content = '{"a":2}';
    fs.writeFileSync(file, JSON.stringify(data));
    expect(accepted.accepted(workspace, POLICY)).toBe('{"a":2}');

    // Unchanged since: not read again, however often it is asked (each job start asks).
    const reads = vi.spyOn(fs, 'readFileSync');
    for (let i = 0; i < 5; i++) expect(accepted.accepted(workspace, POLICY)).toBe('{"a":2}');
    accepted.changes(workspace);
    expect(reads.mock.calls.filter(([p]) => p === file)).toEqual([]);
    reads.mockRestore();

    // A broken file: the safe defaults (none accepted), and record refuses to overwrite it.
    fs.writeFileSync(file, '{ not json');
    expect(accepted.accepted(workspace, POLICY)).toBeNull();
    expect(() => accepted.record(workspace, POLICY, '{}')).toThrow(/cannot be read, so it is not overwritten/);
  });
});
