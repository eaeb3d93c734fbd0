// The engine bench's command line and the targets of issue 11 it checks.
function argNumber(name: string, fallback: number, min: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be an integer ≥ ${min}`);
  return value;
}

export const options = {
  rounds: argNumber('rounds', 9, 1),
  /** LLM iterations per measured job: past turn 200 by a window's width, so that turn 200 has a window. */
  iterations: argNumber('iterations', 210, 12),
  breakdown: process.argv.includes('--breakdown'),
  inProcess: process.argv.includes('--in-process'),
};

export const TARGETS = {
  /** Overhead per iteration at turn 200 / at turn 10. */
  flatness: 1.5,
  /** Median overhead per iteration over the whole job, ms. */
  overheadMs: 2,
  /** Wall time of a job against the TTFT model, engine / raw SDK. */
  latencyRatio: 1.05,
  /** Least share of a request's prompt that is a prefix of the next. */
  prefixReuse: 0.99,
};

/** The scripted model's time to first token in the latency measurement: a realistic fast model. */
export const TTFT_MS = 20;
/** The turns whose overhead is compared, and how many iterations each side of them the window takes. */
export const EARLY_TURN = 10;
export const LATE_TURN = 200;
export const WINDOW_HALF_WIDTH = 5;
