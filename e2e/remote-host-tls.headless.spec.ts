// A host served to a team over TLS (`--bind 0.0.0.0 --tls-cert --tls-key`, a real self-signed certificate made by
// openssl): Chromium trusting exactly that certificate (its SPKI pin) opens the web UI, creates a task and sees the
// scripted model's streamed answer; Chromium without the pin gets a certificate error and no page.
import { makeSelfSignedCert } from '../test-support/self-signed-cert';
import { expect, LLM_API_KEY, LLM_MODEL, test } from './support/fixtures';
import { startHeadlessHost } from './support/headless-host';
import { createInUi, openUi } from './support/ui';

test('a host over TLS: the UI works end to end for a browser that trusts its certificate, and for no other', async ({
  browser,
  playwright,
  launchOptions,
  llm,
}) => {
  const cert = makeSelfSignedCert(['DNS:localhost', 'IP:127.0.0.1']);
  const host = await startHeadlessHost(
    { MAESTRO_LLM_BASE_URL: llm.baseURL, MAESTRO_LLM_MODEL: LLM_MODEL, MAESTRO_LLM_API_KEY: LLM_API_KEY },
    ['--bind', '0.0.0.0', '--tls-cert', cert.certFile, '--tls-key', cert.keyFile, '--host-name', 'team-host'],
  );
  const trusting = await playwright.chromium.launch({
    ...launchOptions,
    args: [...(launchOptions.args ?? []), `--ignore-certificate-errors-spki-list=${cert.spkiPin}`],
  });
  try {
    expect(host.url).toMatch(/^https:\/\/localhost:\d+$/);
    const untrusted = await browser.newPage();
    await expect(untrusted.goto(host.pageUrl)).rejects.toThrow(/ERR_CERT_AUTHORITY_INVALID/);
    await untrusted.close();

    const page = await trusting.newPage();
    llm.push({
      text: 'Served over TLS, streamed all the same.',
      chunkDelayMs: 200,
      toolCalls: [{ name: 'complete', arguments: { status: 'success', message: 'Answered over TLS.' } }],
    });
    await openUi(page, host);
    await createInUi(page, { instruction: 'Say something over TLS.', title: 'Over TLS' });
    await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
    const result = page.locator('[data-testid="chat-message"][data-kind="result"]');
    await expect(result.getByTestId('message-body')).toHaveText('Answered over TLS.');
    // The streamed text, arrived through the event stream (SSE over TLS) without a reload.
    await expect(page.getByTestId('chat-feed')).toContainText('Served over TLS, streamed all the same.');
    // The health the page's own origin answers names the host.
    const health = await page.evaluate(async (token: string) => {
      const res = await fetch('/api/local/health', { headers: { authorization: `Bearer ${token}` } });
      return res.json();
    }, host.token);
    expect(health).toMatchObject({ ok: true, host: 'team-host' });
  } finally {
    await trusting.close();
    await host.stop();
  }
});
