// The first screen while there is no LLM profile (and what "Set up a profile" opens): pick where the model runs, then
// the one ProfileForm, filled from the preset, tests the connection, picks a model from the server's list and saves
// the profile as the default. Saved, the setup closes and `onDone` leads on (to the composer).
import { useState } from 'react';
import type { ProviderKind } from '../../../src-shared/contract/profiles';
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';
import { ProfileForm } from './ProfileForm';

/** The presets offered first; every other kind is one pick away in the form's Kind field. */
const PRESETS = ['openai', 'openrouter', 'ollama', 'lmstudio', 'generic'] as const satisfies readonly ProviderKind[];

export function FirstRunSetup({ onDone }: { onDone(): void }) {
  const [preset, setPreset] = useState<ProviderKind | null>(null);
  const setupOpen = useAppStore((s) => s.setupOpen);
  const closeProfileSetup = useAppStore((s) => s.closeProfileSetup);
  const t = useT();

  function saved() {
    closeProfileSetup();
    onDone();
  }

  return (
    <section className="first-run" data-testid="first-run-setup" aria-labelledby="first-run-title">
      <h2 id="first-run-title">{t('setup.title')}</h2>
      <p>{t('setup.intro')}</p>
      {preset === null ? (
        <>
          <h3 className="settings-section">{t('setup.presets')}</h3>
          <div className="preset-list">
            {PRESETS.map((kind) => (
              <button
                key={kind}
                type="button"
                className="button preset"
                onClick={() => setPreset(kind)}
                data-testid="setup-preset"
                data-kind={kind}
              >
                {t(`setup.preset.${kind}`)}
              </button>
            ))}
          </div>
          {setupOpen ? (
            <div className="dialog-actions">
              <button type="button" className="button" onClick={closeProfileSetup} data-testid="setup-close">
                {t('setup.close')}
              </button>
            </div>
          ) : null}
        </>
      ) : (
        <ProfileForm
          key={preset}
          profile={null}
          preset={preset}
          firstRun={{ onBack: () => setPreset(null) }}
          onDone={saved}
        />
      )}
    </section>
  );
}
