// Settings → Hosts. In a browser the page is the host's own: the section names the host that serves it and says that
// switching is the desktop app's, and the header names it too. The desktop's form is driven in the same built renderer
// in its IPC mode, whose `window.maestro` hands each call to main's REAL HostChooser running in this test's Node
// process (src-main/remote, loaded from source) against REAL hosts: a wrong token and an untrusted certificate are
// shown under their fields with nothing saved; the right ones switch the window to the TLS host, whose name it shows.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { makeSelfSignedCert } from '../test-support/self-signed-cert';
import { expect, test } from './support/fixtures';
import { APP_ROOT, startHeadlessHost } from './support/headless-host';
import { openUi } from './support/ui';

interface Chooser {
  connection: { call(op: string, input: unknown): Promise<unknown>; close(): Promise<void> };
  current(): unknown;
  choose(input: unknown): Promise<unknown>;
}
/** Main's side, from source (the e2e project compiles only e2e and src-shared, so its types are declared here). */
function mainSide(servedUrl: string, servedToken: string, dataDir: string): Chooser {
  // Through Playwright's own TypeScript loader (a dynamic import() of a .ts file is not transformed).
  const load = (file: string) => require(path.join(APP_ROOT, 'src-main', file));
  const { HostChooser } = load('remote/host-chooser.ts');
  const { connectHost } = load('remote/host-connection.ts');
  const { fileSecretBox } = load('llm/secret-box.ts');
  // "This computer" here is the served host, reached as main reaches any core: a CoreConnection.
  const endpoint = { url: servedUrl, token: servedToken };
  const local = connectHost(async () => ({ endpoint, close: async () => {} }), { name: 'local', dataDir });
  return new HostChooser(local, { dataDir, box: fileSecretBox(path.join(dataDir, 'secret.key')) });
}

test('in a browser, Settings → Hosts names the host serving the page and says switching is the desktop app’s', async ({
  page,
}) => {
  const host = await startHeadlessHost({}, ['--host-name', 'team-host']);
  try {
    await openUi(page, host);
    await expect(page.getByTestId('host-badge')).toHaveText('Host: team-host');
    await page.getByTestId('open-settings').click();
    await expect(page.getByTestId('host-served')).toHaveText(
      'This page is served by the host team-host. Choosing another host is a feature of the desktop app (Settings → Hosts).',
    );
    await expect(page.getByTestId('host-form')).toHaveCount(0);
  } finally {
    await host.stop();
  }
});

test('the desktop form: a wrong token or certificate is named under its field and nothing is saved; the right host is shown by name', async ({
  page,
}) => {
  const served = await startHeadlessHost({}, ['--host-name', 'laptop']);
  const cert = makeSelfSignedCert(['DNS:localhost', 'IP:127.0.0.1']);
  const remote = await startHeadlessHost({}, [
    '--bind',
    '127.0.0.1',
    '--tls-cert',
    cert.certFile,
    '--tls-key',
    cert.keyFile,
    '--host-name',
    'build-box',
  ]);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-e2e-desktop-'));
  const chooser = mainSide(served.url, served.token, dataDir);
  try {
    await page.exposeFunction('__mainCall', (op: string, input: unknown) => chooser.connection.call(op, input));
    await page.exposeFunction('__mainCurrentHost', () => ({ ok: true, value: chooser.current() }));
    await page.exposeFunction('__mainChooseHost', (input: unknown) => chooser.choose(input));
    await page.addInitScript(() => {
      const w = window as unknown as Record<string, (...args: unknown[]) => unknown>;
      const shell: Record<string, unknown> = {
        onEvent: () => () => {},
        onOpenTask: () => () => {},
        onCoreStatus: () => () => {},
        setViewingTask: () => {},
        currentHost: () => w.__mainCurrentHost?.(),
        chooseHost: (input: unknown) => w.__mainChooseHost?.(input),
      };
      (window as unknown as Record<string, unknown>).maestro = new Proxy(shell, {
        get: (target, name: string) => target[name] ?? ((input: unknown) => w.__mainCall?.(name, input)),
      });
    });
    await page.goto(served.pageUrl);
    await expect(page.getByTestId('host-badge')).toHaveCount(0);
    await page.getByTestId('open-settings').click();
    await expect(page.getByTestId('host-current')).toHaveText('This window shows: This computer');

    const url = `https://localhost:${new URL(remote.url).port}`;
    await page.getByTestId('host-url').fill(url);
    await page.getByTestId('host-token').fill('not-the-token');
    await page.getByTestId('host-certFile').fill(cert.certFile);
    await page.getByTestId('host-choose').click();
    await expect(page.getByTestId('host-token-error')).toContainText('refused the token (HTTP 401)');
    await expect(page.getByTestId('host-error')).toContainText('Not changed:');

    await page.getByTestId('host-token').fill(remote.token);
    await page.getByTestId('host-certFile').fill('');
    await page.getByTestId('host-choose').click();
    await expect(page.getByTestId('host-certFile-error')).toContainText(`the certificate of ${url} is not trusted`);
    await expect(page.getByTestId('host-token-error')).toHaveCount(0);
    expect(fs.existsSync(path.join(dataDir, 'hosts.json'))).toBe(false);
    await expect(page.getByTestId('host-current')).toHaveText('This window shows: This computer');
    // The form with its errors up is as accessible as the rest of Settings.
    const axe = await new AxeBuilder({ page })
      .include('[data-testid="host-settings"]')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual(
      [],
    );

    await page.getByTestId('host-certFile').fill(cert.certFile);
    await page.getByTestId('host-choose').click();
    // Main switched; the window reloaded and names the host it shows.
    await expect(page.getByTestId('host-badge')).toHaveText('Host: build-box');
    expect(fs.readFileSync(path.join(dataDir, 'hosts.json'), 'utf8')).not.toContain(remote.token);
    const health = (await chooser.connection.call('health', {})) as { value: { host: string } };
    expect(health.value.host).toBe('build-box');
  } finally {
    await chooser.connection.close();
    await remote.stop();
    await served.stop();
    fs.rmSync(cert.dir, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
