// The UI text: every Japanese message present and non-empty, placeholders and plural forms filled, and the locale
// chosen from the OS language.
import { describe, expect, it } from 'vitest';
import { en, type MessageKey } from './en';
import { ja } from './ja';
import { localeFor, translate } from './translate';

const keys = Object.keys(en) as MessageKey[];
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the Japanese messages', () => {
  it('have every English key, non-empty, and no other', () => {
    expect(Object.keys(ja).sort()).toEqual([...keys].sort());
    for (const key of keys) expect(ja[key].trim(), key).not.toBe('');
  });

  it('use the same placeholders as the English ones', () => {
    for (const key of keys) expect(new Set(placeholders(ja[key])), key).toEqual(new Set(placeholders(en[key])));
  });
});

describe('translate', () => {
  it('fills {name} placeholders and leaves unknown ones as written', () => {
    expect(translate('en', 'taskList.error', { error: 'down' })).toBe('Could not load tasks: down');
    expect(translate('ja', 'toast.jobEnded.succeeded', { title: '俳句' })).toBe('「俳句」が完了しました。');
    expect(translate('en', 'taskList.error')).toBe('Could not load tasks: {error}');
  });

  it('picks the plural form by {count} with the locale rules', () => {
    expect(translate('en', 'usage.turns', { count: 1 })).toBe('1 turn');
    expect(translate('en', 'usage.turns', { count: 3 })).toBe('3 turns');
    expect(translate('en', 'usage.llmCalls', { count: 0 })).toBe('0 model calls');
    expect(translate('en', 'composer.cards', { count: 1 })).toBe('A request waits for your decision');
    expect(translate('en', 'composer.cards', { count: 2 })).toBe('2 requests wait for your decision');
    expect(translate('ja', 'usage.turns', { count: 1 })).toBe('1 ターン');
    expect(translate('ja', 'usage.turns', { count: 4 })).toBe('4 ターン');
  });

  it('keeps the English UI text of the status badges and buttons', () => {
    expect(translate('en', 'app.newTask')).toBe('New task');
    expect(translate('en', 'status.waiting_human')).toBe('waiting for you');
    expect(translate('ja', 'app.newTask')).toBe('新しいタスク');
    expect(translate('ja', 'approval.deny')).toBe('拒否');
  });
});

describe('localeFor', () => {
  it('is Japanese for ja* and English otherwise', () => {
    expect(localeFor('ja')).toBe('ja');
    expect(localeFor('ja-JP')).toBe('ja');
    expect(localeFor('JA-jp')).toBe('ja');
    expect(localeFor('en-US')).toBe('en');
    expect(localeFor('fr')).toBe('en');
    expect(localeFor('jv')).toBe('en');
    expect(localeFor('jam')).toBe('en');
    expect(localeFor(undefined)).toBe('en');
    expect(localeFor('')).toBe('en');
  });
});
