// Renderer entry: pick the transport (IPC in Electron, HTTP with the page token in a browser) and mount the app.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { connect } from './api/client';
import { CoreNotice } from './components/CoreNotice';
import { warmGrammars } from './components/MarkdownCode';
import { linkShell } from './shell-link';
import { initialLocale, initialTheme } from './store/prefs-slice';
import { createAppStore, StoreContext } from './store/store';
import { applyTheme } from './theme';
import './styles/index.css';

// Before the first paint, so a dark OS never flashes the light palette; App keeps both in step afterwards.
applyTheme(initialTheme())();
document.documentElement.lang = initialLocale();

const root = createRoot(document.getElementById('root') as HTMLElement);
const choice = connect();

if (choice.ok) {
  const store = createAppStore(choice.client);
  linkShell(choice.client.shell, store);
  root.render(
    <StrictMode>
      <StoreContext value={store}>
        <CoreNotice shell={choice.client.shell} />
        <App />
      </StoreContext>
    </StrictMode>,
  );
  warmGrammars();
} else {
  root.render(
    <main className="empty-view" data-testid="no-token">
      <h1>MAESTRO</h1>
      <p>{choice.reason}</p>
    </main>,
  );
}
