// The host the desktop's window shows, kept in `<dataDir>/hosts.json` (atomic, 0600) so the next start shows it
// again: the choice as the person made it, with its token sealed by the same SecretBox as the profiles' keys and bound
// to the host's address (a sealed token copied to another host's entry does not open). Absent or `current: null`:
// this computer. The token is never written in clear.
import path from 'node:path';
import { z } from 'zod';
import { HostChoice, HostView } from '../../src-shared/hosts';
import type { SecretBox } from '../llm/secret-box';
import { readJsonFile, writeJsonFile } from '../workspace/json-file';
import { hostAddress, type RemoteChoice } from './host-dial';

export const HOSTS_FILE = 'hosts.json';

const Saved = z.strictObject({
  view: HostView,
  /** The choice without its token. */
  choice: z.record(z.string(), z.unknown()),
  token: z.strictObject({ box: z.string().min(1), sealed: z.string().min(1) }),
});
const HostsFile = z.strictObject({ version: z.literal(1), current: Saved.nullable() });

const sealContext = (choice: RemoteChoice) => `host\n${choice.kind}\n${hostAddress(choice)}`;

export type SavedHost = { choice: RemoteChoice; view: HostView } | null;

export function saveHost(dataDir: string, box: SecretBox, saved: SavedHost): void {
  const file = path.join(dataDir, HOSTS_FILE);
  if (!saved) {
    writeJsonFile(file, { version: 1, current: null });
    return;
  }
  const { token, ...rest } = saved.choice;
  const current = {
    view: saved.view,
    choice: rest,
    token: { box: box.kind, sealed: box.seal(token, sealContext(saved.choice)) },
  };
  writeJsonFile(file, { version: 1, current });
}

/** The saved host; a file that is broken, or a token that no longer opens, is said and means this computer. */
export function loadHost(dataDir: string, box: SecretBox): { saved: SavedHost; problem?: string } {
  const file = path.join(dataDir, HOSTS_FILE);
  const read = readJsonFile(file, HostsFile);
  switch (read.kind) {
    case 'absent':
      return { saved: null };
    case 'broken':
      return { saved: null, problem: `${file} ${read.problem}; showing this computer` };
    case 'ok':
      break;
    default: {
      const never: never = read;
      throw new Error(`unknown read ${JSON.stringify(never)}`);
    }
  }
  const current = read.value.current;
  if (!current) return { saved: null };
  const withoutToken = HostChoice.safeParse({ ...current.choice, token: 'x' });
  if (!withoutToken.success || withoutToken.data.kind === 'local') {
    return { saved: null, problem: `${file} holds a host that is not valid; showing this computer` };
  }
  if (current.token.box !== box.kind) {
    return { saved: null, problem: `${file}: the host's token was sealed by another box; choose the host again` };
  }
  try {
    const token = box.open(current.token.sealed, sealContext(withoutToken.data));
    return { saved: { choice: { ...withoutToken.data, token }, view: current.view } };
  } catch (error) {
    return { saved: null, problem: `${file}: the host's token cannot be opened (${(error as Error).message})` };
  }
}
