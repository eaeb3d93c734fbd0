// How the engine bench measures and prints: clocks, medians, formats, PASS/MISS.
import os from 'node:os';
import { performance } from 'node:perf_hooks';

/** Wall-clock ms and this process's CPU ms (user + system). */
export interface Timing {
  ms: number;
  cpuMs: number;
}

/** This process's CPU time so far, ms (user + system, every thread). */
export const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

export const clock = () => ({ wall: performance.now(), cpu: process.cpuUsage() });
export function since(start: ReturnType<typeof clock>): Timing {
  const cpu = process.cpuUsage(start.cpu);
  return { ms: performance.now() - start.wall, cpuMs: (cpu.user + cpu.system) / 1000 };
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Rounded down, so that 99.996% never reads as 100%. */
export const pct = (x: number) => `${(Math.floor(x * 10_000) / 100).toFixed(2)}%`;
export const times = (x: number) => `${x.toFixed(2)}×`;
export const ms = (x: number) => `${x.toFixed(0)} ms`;
export const msPrecise = (x: number) => `${x.toFixed(2)} ms`;

export interface Verdict {
  pass: boolean;
  line: string;
}
export const verdict = (pass: boolean, line: string): Verdict => ({ pass, line: `${pass ? 'PASS' : 'MISS'}  ${line}` });

export const loadAverage = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
