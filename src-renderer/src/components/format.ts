// Human-readable times for list rows and messages, in the UI's language (not the OS's): "14:05" / "2:05 PM" today,
// "Dec 1" / "12月1日" on another day.
import type { Locale } from '../i18n';

interface Formats {
  time: Intl.DateTimeFormat;
  day: Intl.DateTimeFormat;
}

/**
 * One pair of formatters per language: `toLocaleTimeString` with options builds a new ICU formatter on every call
 * (about a millisecond), and a feed or list formats dozens of times in one render.
 */
const FORMATS = new Map<Locale, Formats>();

function formatsOf(locale: Locale): Formats {
  let formats = FORMATS.get(locale);
  if (!formats) {
    formats = {
      time: new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' }),
      day: new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric' }),
    };
    FORMATS.set(locale, formats);
  }
  return formats;
}

export function formatTime(iso: string, locale: Locale, now: Date = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const sameDay = date.toDateString() === now.toDateString();
  const formats = formatsOf(locale);
  return sameDay ? formats.time.format(date) : formats.day.format(date);
}
