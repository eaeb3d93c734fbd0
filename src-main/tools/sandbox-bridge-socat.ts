// The socat the sandbox library runs its network bridges with (and, inside each sandbox, its relays): a wrapper that
// asks the kernel to end socat when the process that started it ends (`setpriv --pdeathsig`, util-linux). Without
// it a host killed with SIGKILL leaves its bridges listening, parented to init, for good; with it they end with the
// host however the host ends. Where setpriv is missing the wrapper runs socat as the library would.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const WRAPPER = `#!/bin/sh
if command -v setpriv >/dev/null 2>&1; then exec setpriv --pdeathsig TERM -- socat "$@"; fi
exec socat "$@"
`;

let made: string | null = null;

/**
 * The wrapper's path, written once per process into a folder of its own (read-only, owned by this user): the sandbox
 * must show it, since the library runs the same socat path inside.
 */
export function bridgeSocat(): string {
  if (made && fs.existsSync(made)) return made;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-socat-'));
  const file = path.join(dir, 'socat');
  fs.writeFileSync(file, WRAPPER, { mode: 0o500 });
  fs.chmodSync(dir, 0o500);
  made = file;
  process.once('exit', () => {
    try {
      fs.chmodSync(dir, 0o700);
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // Best effort: an 'exit' handler must not throw.
    }
  });
  return file;
}
