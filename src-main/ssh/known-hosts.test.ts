// known_hosts as OpenSSH reads it: plain names, `[host]:port`, patterns with negations, hashed `|1|` names (hashed
// here by ssh-keygen itself), `@revoked` keys; and the fingerprint as `ssh-keygen -l` prints it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeKeyPair, sshFingerprint } from '../../test-support/sshd';
import { fingerprint, keyType, knownKeysFor } from './known-hosts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-known-hosts-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const a = makeKeyPair(dir, 'a');
const b = makeKeyPair(dir, 'b');
const entry = (key: { publicLine: string }) => key.publicLine.split(' ').slice(0, 2).join(' ');
const blob = (key: { publicLine: string }) => Buffer.from(key.publicLine.split(' ')[1] as string, 'base64');

describe('knownKeysFor', () => {
  it('matches plain names, [host]:port, patterns and negations', () => {
    const text = [
      '# comment',
      '',
      `buildbox,192.168.1.20 ${entry(a)}`,
      `[buildbox]:2222 ${entry(b)}`,
      `*.example.com,!evil.example.com ${entry(b)}`,
      `host? ${entry(a)}`,
      'garbage',
    ].join('\n');
    expect(knownKeysFor(text, 'buildbox', 22).accepted).toEqual([blob(a)]);
    expect(knownKeysFor(text, '192.168.1.20', 22).accepted).toEqual([blob(a)]);
    expect(knownKeysFor(text, 'buildbox', 2222).accepted).toEqual([blob(b)]);
    expect(knownKeysFor(text, 'www.example.com', 22).accepted).toEqual([blob(b)]);
    expect(knownKeysFor(text, 'evil.example.com', 22).accepted).toEqual([]);
    expect(knownKeysFor(text, 'host1', 22).accepted).toEqual([blob(a)]);
    expect(knownKeysFor(text, 'host12', 22).accepted).toEqual([]);
    expect(knownKeysFor(text, 'buildbox', 22).types).toEqual(['ssh-ed25519']);
  });

  it('matches names hashed by ssh-keygen -H, only for their own host and port', () => {
    const file = path.join(dir, 'known_hosts');
    fs.writeFileSync(file, `buildbox ${entry(a)}\n[buildbox]:2222 ${entry(b)}\n`);
    execFileSync('ssh-keygen', ['-H', '-f', file], { stdio: 'ignore' });
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain('buildbox');
    expect(knownKeysFor(text, 'buildbox', 22).accepted).toEqual([blob(a)]);
    expect(knownKeysFor(text, 'buildbox', 2222).accepted).toEqual([blob(b)]);
    expect(knownKeysFor(text, 'otherbox', 22).accepted).toEqual([]);
  });

  it('collects @revoked keys and skips @cert-authority lines', () => {
    const text = `@revoked * ${entry(a)}\n@cert-authority *.example.com ${entry(b)}\nbuildbox ${entry(a)}\n`;
    const known = knownKeysFor(text, 'buildbox', 22);
    expect(known.revoked).toEqual([blob(a)]);
    expect(known.accepted).toEqual([blob(a)]);
    expect(knownKeysFor(text, 'www.example.com', 22).accepted).toEqual([]);
  });

  it('fingerprints as ssh-keygen -l does', () => {
    expect(fingerprint(blob(a))).toBe(sshFingerprint(a));
    expect(keyType(blob(a))).toBe('ssh-ed25519');
  });
});
