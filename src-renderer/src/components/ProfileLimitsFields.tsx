// The LlmCall limits of a profile in its form: the reply's and one tool call's size in MiB, the total time in seconds,
// and the calls of the profile at once across all tasks.
// Empty means the default (shown as the placeholder); main checks the ranges and a 400 shows under the field.
import { useState } from 'react';
import type { ProfileView } from '../../../src-shared/contract';
import { REPLY_LIMIT_DEFAULTS, type ReplyLimitName } from '../../../src-shared/contract/profiles';
import type { OpInput } from '../api/client';
import { useT } from '../hooks/useT';
import { useProfilePrices } from './ProfilePriceFields';

const MIB = 1024 * 1024;
type LimitName = ReplyLimitName | 'maxConcurrentCalls';
/** The unit each field is typed in, as a number of the limit's own unit (bytes, seconds, calls). */
const UNIT: Record<LimitName, number> = {
  maxReplyBytes: MIB,
  maxToolArgumentBytes: MIB,
  maxCallSeconds: 1,
  maxConcurrentCalls: 1,
};
export const LIMIT_FIELDS = Object.keys(UNIT) as LimitName[];

const shown = (value: number | undefined, name: LimitName) => (value === undefined ? '' : String(value / UNIT[name]));

/** The limits, and the prices beside them (ProfilePriceFields): both applied to a save by `apply`. */
export function useProfileLimits(profile: ProfileView | null) {
  const prices = useProfilePrices(profile);
  const [text, setText] = useState<Record<LimitName, string>>({
    maxReplyBytes: shown(profile?.maxReplyBytes, 'maxReplyBytes'),
    maxToolArgumentBytes: shown(profile?.maxToolArgumentBytes, 'maxToolArgumentBytes'),
    maxCallSeconds: shown(profile?.maxCallSeconds, 'maxCallSeconds'),
    maxConcurrentCalls: shown(profile?.maxConcurrentCalls, 'maxConcurrentCalls'),
  });
  /** Puts the typed limits into a save; a field left empty is left out (the default). */
  const apply = (input: OpInput<'saveProfile'>) => {
    for (const name of LIMIT_FIELDS) {
      if (text[name].trim() !== '') input[name] = Math.round(Number(text[name]) * UNIT[name]);
    }
    prices.apply(input);
  };
  return { text, setText, apply, prices };
}

export function ProfileLimitsFields({
  limits,
  fieldError,
}: {
  limits: ReturnType<typeof useProfileLimits>;
  fieldError: (name: LimitName) => React.ReactNode;
}) {
  const t = useT();
  return (
    <div className="field-row" data-testid="profile-limits">
      {LIMIT_FIELDS.map((name) => (
        <label className="field" key={name}>
          <span>
            {t(`profile.${name}`)} <em>{t('profile.optional')}</em>
          </span>
          <input
            inputMode="decimal"
            value={limits.text[name]}
            onChange={(e) => limits.setText({ ...limits.text, [name]: e.target.value })}
            placeholder={
              name === 'maxConcurrentCalls'
                ? t('profile.noLimit')
                : t('profile.limitDefault', { value: REPLY_LIMIT_DEFAULTS[name] / UNIT[name] })
            }
            data-testid={`profile-field-${name}`}
          />
          {fieldError(name)}
        </label>
      ))}
    </div>
  );
}
