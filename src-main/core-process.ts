// The desktop's core in its own process (an Electron utility process): the composition root — DB, Worker, engine,
// MCP, the HTTP bridge — away from the main process that moves the windows. It talks to main over its parentPort
// (app/core-messages.ts): it is started with the data dir and the keychain's data key, answers the contract's
// operations by id, and sends every event and the tray's attention as they happen. No `electron` import: parentPort
// is a global of the utility process. The headless host needs none of this (it is the core's process itself).

import { assertNever } from '../src-shared/assert-never';
import type { MaestroEvent } from '../src-shared/events';
import { removeBridgeFile, writeBridgeFile } from './app/bridge-file';
import { concurrencyFrom } from './app/concurrency';
import { answer, attentionUpdates } from './app/core-connection';
import { type CoreStartOptions, type FromCore, ToCore } from './app/core-messages';
import { createMaestro, type Maestro } from './app/create-maestro';
import { startBridgeAtKeptAddress } from './bridge/kept-address';
import type { Bridge } from './bridge/server';
import { keyedSecretBox } from './llm/secret-box';

/** What Electron's parentPort offers a utility process (and the test's stand-in copies). */
export interface CorePort {
  on(event: 'message', listener: (message: { data: unknown }) => void): unknown;
  postMessage(message: unknown): void;
}

export function serveCore(port: CorePort, exit: (code: number) => void): void {
  let maestro: Maestro | undefined;
  let bridge: Bridge | undefined;
  let stopping = false;
  // Events go in batches, one message per turn of the loop (a streaming job makes hundreds a second), and every
  // other message flushes the batch first: main sees events and answers in the order the core made them.
  let batch: MaestroEvent[] = [];
  const flush = () => {
    if (batch.length === 0) return;
    port.postMessage({ kind: 'events', events: batch } satisfies FromCore);
    batch = [];
  };
  const post = (message: FromCore) => {
    flush();
    port.postMessage(message);
  };
  const publish = (event: MaestroEvent) => {
    if (batch.length === 0) setImmediate(flush);
    batch.push(event);
  };

  const start = async (options: CoreStartOptions) => {
    maestro = createMaestro({
      dataDir: options.dataDir,
      piecesDir: options.piecesDir,
      version: options.version,
      nativeBinding: options.nativeBinding,
      worker: { concurrency: concurrencyFrom(process.env.MAESTRO_CONCURRENCY, 'MAESTRO_CONCURRENCY') },
      secretBox: options.keychainKey
        ? keyedSecretBox(Buffer.from(options.keychainKey, 'base64'), 'the OS keychain (Electron safeStorage)')
        : undefined,
    });
    const m = maestro;
    m.store.subscribe(publish);
    attentionUpdates(m, (update) => post({ kind: 'attention', ...update }));
    const started = await startBridgeAtKeptAddress({ maestro: m, staticDir: options.rendererDir });
    bridge = started.bridge;
    if (started.note) console.log(`MAESTRO: ${started.note}`);
    m.start();
    writeBridgeFile(m.ctx.dataDir, { url: bridge.url, token: started.token, pid: process.pid });
    post({ kind: 'ready', dataDir: m.ctx.dataDir, bridgeUrl: bridge.url });
  };

  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await bridge?.close();
    if (maestro) {
      await maestro.close();
      removeBridgeFile(maestro.ctx.dataDir);
    }
    post({ kind: 'stopped' });
    exit(0);
  };

  port.on('message', ({ data }) => {
    const parsed = ToCore.safeParse(data);
    if (!parsed.success) {
      console.error('the core dropped a message of an unknown shape:', parsed.error.issues[0]?.message);
      return;
    }
    const message = parsed.data;
    switch (message.kind) {
      case 'start':
        if (maestro) return;
        start(message.options).catch((error: unknown) => {
          post({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
          exit(1);
        });
        return;
      case 'call': {
        const { id, op, input } = message;
        if (!maestro || stopping) {
          post({
            kind: 'result',
            id,
            result: { ok: false, error: { code: 'core_restarting', message: 'the core is not running' } },
          });
          return;
        }
        void answer(maestro, op, input).then((result) => post({ kind: 'result', id, result }));
        return;
      }
      case 'live':
        post({ kind: 'live', id: message.id, events: maestro?.store.liveEvents() ?? [] });
        return;
      case 'stop':
        stop().catch((error: unknown) => {
          console.error('the core did not close cleanly:', error);
          exit(1);
        });
        return;
      default:
        assertNever(message, 'message to the core');
    }
  });
}

const parentPort = (process as NodeJS.Process & { parentPort?: CorePort }).parentPort;
if (parentPort) serveCore(parentPort, (code) => process.exit(code));
