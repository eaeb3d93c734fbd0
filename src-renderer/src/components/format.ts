// Human-readable times for list rows and messages, in the UI's language (not the OS's): "14:05" / "2:05 PM" today,
// "Dec 1" / "12月1日" on another day.
import type { Locale } from '../i18n';

export function formatTime(iso: string, locale: Locale, now: Date = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const sameDay = date.toDateString() === now.toDateString();
  return sameDay
    ? date.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' })
    : date.toLocaleDateString(locale, { month: 'short', day: 'numeric' });
}
