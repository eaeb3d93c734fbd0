// hosts.json: the token sealed (never in clear), bound to its host's address (moved to another address it does not
// open), and a file that is broken or was sealed by another box means this computer, said, never a crash.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp-maestro';
import { fileSecretBox, keyedSecretBox, newDataKey } from '../llm/secret-box';
import { HOSTS_FILE, loadHost, saveHost } from './host-file';

const TOKEN = 'tok_0123456789abcdef0123456789abcdef';
const choice = { kind: 'tls' as const, url: 'https://buildbox.example.com:8443', token: TOKEN };
const view = { kind: 'tls' as const, name: 'buildbox', address: choice.url };

describe('hosts.json', () => {
  it('P10.11 keeps the token sealed and opens it again; nothing of it is in clear', () => {
    const dir = tempDir();
    const box = fileSecretBox(path.join(dir, 'secret.key'));
    saveHost(dir, box, { choice, view });
    const text = fs.readFileSync(path.join(dir, HOSTS_FILE), 'utf8');
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(TOKEN.slice(4, 20));
    expect(loadHost(dir, box)).toEqual({ saved: { choice, view } });
    saveHost(dir, box, null);
    expect(loadHost(dir, box)).toEqual({ saved: null });
  });

  it('a sealed token moved to another address does not open there: this computer is shown, and why', () => {
    const dir = tempDir();
    const box = fileSecretBox(path.join(dir, 'secret.key'));
    saveHost(dir, box, { choice, view });
    const file = path.join(dir, HOSTS_FILE);
    const json = JSON.parse(fs.readFileSync(file, 'utf8'));
    json.current.choice.url = 'https://attacker.example.com';
    fs.writeFileSync(file, JSON.stringify(json));
    const loaded = loadHost(dir, box);
    expect(loaded.saved).toBeNull();
    expect(loaded.problem).toMatch(/the host's token cannot be opened/);
    expect(loaded.problem).not.toContain(TOKEN);
  });

  it('a broken file, or one sealed by another box, means this computer and says so', () => {
    const dir = tempDir();
    const file = path.join(dir, HOSTS_FILE);
    fs.writeFileSync(file, '{ not json');
    expect(loadHost(dir, fileSecretBox(path.join(dir, 'secret.key')))).toEqual({
      saved: null,
      problem: `${file} is not valid JSON; showing this computer`,
    });
    saveHost(dir, fileSecretBox(path.join(dir, 'secret.key')), { choice, view });
    const keychain = keyedSecretBox(newDataKey(), 'the test keychain');
    expect(loadHost(dir, keychain).problem).toMatch(/sealed by another box; choose the host again/);
  });
});
