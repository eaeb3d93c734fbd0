// Settings → Hosts in main: choosing a host (parsed here, checked by reaching its /health with the token, then saved
// with the token sealed, and only then shown), the host shown now, and on start the saved one again. A choice that
// does not check out is answered with what failed, and neither the file nor the window changes.
import os from 'node:os';
import { errorBody, MaestroError, type Result } from '../../src-shared/errors';
import { HostChoice, type HostView } from '../../src-shared/hosts';
import { describeIssues } from '../../src-shared/issues';
import type { SecretBox } from '../llm/secret-box';
import { connectHost, type HostConnection, type HostConnectionOptions, type HostLink } from './host-connection';
import { checkHost, type DialOptions, dialerFor } from './host-dial';
import { loadHost, saveHost } from './host-file';
import { type HostSwitch, hostSwitch, type StatusSource } from './host-switch';

export interface HostChooserOptions {
  dataDir: string;
  box: SecretBox;
  dial?: DialOptions;
  connection?: Partial<HostConnectionOptions>;
}

export class HostChooser {
  readonly connection: HostSwitch;
  private view: HostView;
  private remote: HostConnection | null = null;
  /** One choice at a time: a second waits for the first to be saved and shown. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    local: StatusSource,
    private readonly options: HostChooserOptions,
  ) {
    this.connection = hostSwitch(local);
    this.view = HostChooser.localView();
  }

  static localView(): HostView {
    return { kind: 'local', name: os.hostname(), address: '' };
  }

  current(): HostView {
    return this.view;
  }

  /** The remote host shown now, if any (its stream's resume point, for tests and the shell). */
  get remoteConnection(): HostConnection | null {
    return this.remote;
  }

  /** The saved host, shown again without waiting for it (a host that is down is reached again in the background). */
  async restore(): Promise<string | undefined> {
    const { saved, problem } = loadHost(this.options.dataDir, this.options.box);
    if (!saved) return problem;
    try {
      const dial = await dialerFor(saved.choice, this.options.dial);
      await this.show(connectHost(dial, this.connectionOptions(saved.view.name)), saved.view);
      return problem;
    } catch (error) {
      return `the saved host ${saved.view.address} cannot be used (${(error as Error).message}); showing this computer`;
    }
  }

  choose(input: unknown): Promise<Result<HostView>> {
    const next = this.queue.then(() => this.chooseNow(input));
    this.queue = next.catch(() => {});
    return next;
  }

  private async chooseNow(input: unknown): Promise<Result<HostView>> {
    const parsed = HostChoice.safeParse(input);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => ({ path: i.path as (string | number)[], message: i.message }));
      return {
        ok: false,
        error: {
          code: 'invalid_input',
          message: `the host is not valid: ${describeIssues(parsed.error.issues, { whole: '(host)', limit: 3 })}`,
          issues,
        },
      };
    }
    const choice = parsed.data;
    try {
      if (choice.kind === 'local') {
        saveHost(this.options.dataDir, this.options.box, null);
        await this.show(null, HostChooser.localView());
        return { ok: true, value: this.view };
      }
      const checked = await checkHost(choice, this.options.dial);
      try {
        saveHost(this.options.dataDir, this.options.box, { choice, view: checked.view });
      } catch (error) {
        await checked.link.close();
        throw error;
      }
      // The link the check opened is the connection's first; later ones are dialled again (an SSH tunnel that ended).
      let first: HostLink | undefined = checked.link;
      const dial = async () => {
        const link = first ?? (await checked.dial());
        first = undefined;
        return link;
      };
      await this.show(connectHost(dial, this.connectionOptions(checked.view.name)), checked.view);
      return { ok: true, value: this.view };
    } catch (error) {
      if (!(error instanceof MaestroError)) console.error('choosing a host failed:', error);
      return { ok: false, error: errorBody(error) };
    }
  }

  private connectionOptions(name: string): HostConnectionOptions {
    return { ...this.options.connection, name, dataDir: this.options.dataDir };
  }

  private async show(remote: HostConnection | null, view: HostView): Promise<void> {
    this.remote = remote;
    this.view = view;
    await this.connection.use(remote);
  }
}
