// ef.utils.Progbar: Keras 3's progress bar (keras/src/utils/progbar.py, also tf.keras.utils.Progbar), line for line:
// the same averaging of stateless metrics, ETA and time-per-step columns, ANSI styling and Python's number
// formatting, so it prints what Keras prints for the same calls (test/utils/fixtures/keras_progbar.json).
import { Tensor, argError } from '@eagerflow/core';

/** Where the bar is written: Node's process.stdout, or anything with write() (isTTY picks the one-line mode). */
export interface ProgbarStream {
  /** Writes the bar's text (a `\r`-redrawn line on a TTY, whole lines otherwise). */
  write(text: string): unknown;
  isTTY?: boolean;
}

/** Options of Progbar (Keras's keyword arguments in camelCase). */
export interface ProgbarOptions {
  /** Bar width in characters (default 20). */
  width?: number;
  /** 0: silent, 1: a bar redrawn at most every `interval` seconds, 2: one line when finished (default 1). */
  verbose?: 0 | 1 | 2;
  /** Least time between two redraws, in seconds (default 0.05). */
  interval?: number;
  /** Metrics shown as given rather than averaged over the steps (Keras's stateful_metrics). */
  statefulMetrics?: Iterable<string>;
  /** Name of a step in the time-per-step column (default 'step'). */
  unitName?: string;
  /** Output (default: process.stdout, else console lines). A TTY stream gets one line redrawn with '\b' and '\r'. */
  stream?: ProgbarStream;
  /** Clock in seconds (default: Date.now() / 1000); tests script it. */
  now?: () => number;
}

/** A metric value for update()/add(): a number or a scalar tensor (read on the host). */
export type ProgbarValue = number | Tensor;

// Python's float formatting: '{:.Nf}' rounds exact ties to even (JS toFixed rounds them up), '{:.Ne}' pads
// the exponent to two digits.
function pyFixed(x: number, digits: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'nan' : x > 0 ? 'inf' : '-inf';
  const negative = x < 0 || Object.is(x, -0);
  const a = Math.abs(x);
  let out = a.toFixed(digits);
  // toFixed with 40 more places shows the binary value's exact decimal tail (for the magnitudes printed here).
  const exact = a.toFixed(Math.min(100, digits + 40));
  const dot = exact.indexOf('.');
  if (/^50*$/.test(exact.slice(dot + 1 + digits))) {
    const truncated = digits === 0 ? exact.slice(0, dot) : exact.slice(0, dot + 1 + digits);
    if (Number(truncated[truncated.length - 1]) % 2 === 0) out = truncated; // a tie goes to the even digit
  }
  return negative ? `-${out}` : out;
}

function pyExp(x: number, digits: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'nan' : x > 0 ? 'inf' : '-inf';
  const [m, e] = x.toExponential(digits).split('e');
  const sign = e[0] === '-' ? '-' : '+';
  const mag = e.replace(/^[+-]/, '');
  return `${m}e${sign}${mag.padStart(2, '0')}`;
}

const pad = (n: number, width: number): string => String(Math.trunc(n)).padStart(width, ' ');

function defaultStream(): ProgbarStream {
  const out = (globalThis as { process?: { stdout?: ProgbarStream } }).process?.stdout;
  if (out !== undefined && typeof out.write === 'function') return out;
  // Browsers: no terminal; complete lines go to console.log.
  let line = '';
  return {
    write(text: string): void {
      line += text;
      const parts = line.split('\n');
      line = parts.pop() ?? '';
      for (const p of parts) if (p !== '') console.log(p);
    },
  };
}

/**
 * A progress bar for loops (tf.keras.utils.Progbar): `update(current, values)` sets the step count,
 * `add(n, values)` advances it; values are `[name, value]` pairs, averaged over the steps unless the name is
 * in `statefulMetrics`. On a TTY it redraws one line; otherwise each redraw is a new line.
 * @example
 * const lines: string[] = [];
 * const bar = new ef.utils.Progbar(3, { stream: { write: (s: string) => lines.push(s) }, interval: 0 });
 * for (let i = 1; i <= 3; i++) bar.update(i, [['loss', 1 / i]]);
 * lines.length; // 3
 * lines[2].includes('3/3'); // true
 */
export class Progbar {
  readonly target: number | null;
  readonly width: number;
  readonly verbose: 0 | 1 | 2;
  readonly interval: number;
  readonly unitName: string;
  private readonly statefulMetrics: Set<string>;
  private readonly stream: ProgbarStream;
  private readonly now: () => number;
  private readonly dynamicDisplay: boolean;
  private seenSoFar = 0;
  private readonly values = new Map<string, [number, number]>();
  private readonly start: number;
  private lastUpdate = 0;
  private timeAfterFirstStep: number | null = null;
  private prevTotalWidth = 0;

  constructor(target: number | null, options: ProgbarOptions = {}) {
    const api = 'utils.Progbar';
    if (target !== null && target !== undefined && (typeof target !== 'number' || !(target >= 0))) {
      throw argError(api, 'target must be a non-negative number or null', String(target), 'the number of steps, or null when unknown', 'Pass the total step count (e.g. batches per epoch).');
    }
    const o = options ?? {};
    this.target = target ?? null;
    this.width = o.width ?? 20;
    this.verbose = o.verbose ?? 1;
    this.interval = o.interval ?? 0.05;
    this.unitName = o.unitName ?? 'step';
    if (!Number.isInteger(this.width) || this.width < 0) throw argError(api, 'width must be a non-negative integer', String(this.width), 'e.g. 20', 'Pass the bar width in characters.');
    if (this.verbose !== 0 && this.verbose !== 1 && this.verbose !== 2) throw argError(api, 'verbose must be 0, 1 or 2', String(this.verbose), '0 (silent), 1 (bar) or 2 (one line at the end)', 'Pick a verbosity.');
    this.statefulMetrics = new Set(o.statefulMetrics ?? []);
    this.stream = o.stream ?? defaultStream();
    this.now = o.now ?? (() => Date.now() / 1000);
    this.dynamicDisplay = this.stream.isTTY === true;
    this.start = this.now();
  }

  /**
   * Sets the current step and (re)draws the bar. `finalize` (default: `current >= target`) prints the final
   * line, with the elapsed time in place of the ETA.
   */
  update(current: number, values?: readonly (readonly [string, ProgbarValue])[] | null, finalize?: boolean): void {
    const fin = finalize ?? (this.target === null ? false : current >= this.target);
    for (const [k, raw] of values ?? []) {
      const v = raw instanceof Tensor ? Number(raw.dataSync()[0]) : Number(raw);
      if (!this.statefulMetrics.has(k)) {
        if (fin) {
          this.values.set(k, [v, 1]);
        } else {
          const base = Math.max(current - this.seenSoFar, 1);
          const acc = this.values.get(k);
          if (acc === undefined) this.values.set(k, [v * base, base]);
          else this.values.set(k, [acc[0] + v * base, acc[1] + base]);
        }
      } else {
        this.values.set(k, [v, 1]);
      }
    }
    this.seenSoFar = current;
    const now = this.now();
    const timePerUnit = this.estimateStepDuration(current, now);

    if (this.verbose === 1) {
      if (now - this.lastUpdate < this.interval && !fin) return;
      let message = this.dynamicDisplay ? '\b'.repeat(this.prevTotalWidth) + '\r' : '\n';
      let special = 0;
      let bar: string;
      const target = this.target;
      if (target !== null && target > 0) {
        const digits = Number.isInteger(target) ? String(target).length : Math.floor(Math.log10(target)) + 1;
        bar = `\x1b[1m${pad(current, digits)}/${Math.trunc(target)}\x1b[0m `;
        special += 8;
        const progWidth = Math.trunc(this.width * (current / target));
        if (progWidth > 0) {
          bar += `\x1b[32m${'━'.repeat(progWidth)}\x1b[0m`;
          special += 9;
        }
        bar += `\x1b[37m${'━'.repeat(Math.max(0, this.width - progWidth))}\x1b[0m`;
        special += 9;
      } else {
        bar = `${pad(current, 7)}/Unknown`;
      }
      message += bar;
      let info: string;
      if (target !== null && target > 0 && !fin) {
        const eta = timePerUnit * (target - current);
        let etaFormat: string;
        if (eta > 3600) etaFormat = `${Math.trunc(Math.floor(eta / 3600))}:${pad(Math.floor((eta % 3600) / 60), 2).replace(/ /g, '0')}:${pad(eta % 60, 2).replace(/ /g, '0')}`;
        else if (eta > 60) etaFormat = `${Math.trunc(Math.floor(eta / 60))}:${pad(eta % 60, 2).replace(/ /g, '0')}`;
        else etaFormat = `${Math.trunc(eta)}s`;
        info = ` \x1b[1m${etaFormat}\x1b[0m`;
      } else {
        info = ` \x1b[1m${pyFixed(now - this.start, 0)}s\x1b[0m`;
      }
      special += 8;
      info += this.formatTime(timePerUnit);
      for (const [k, [sum, count]] of this.values) {
        const avg = sum / Math.max(1, count);
        info += ` - ${k}: ${Math.abs(avg) > 1e-3 ? pyFixed(avg, 4) : pyExp(avg, 4)}`;
      }
      message += info;
      const totalWidth = bar.length + info.length - special;
      if (this.prevTotalWidth > totalWidth) message += ' '.repeat(this.prevTotalWidth - totalWidth);
      if (fin) message += '\n';
      this.stream.write(message);
      this.prevTotalWidth = totalWidth;
    } else if (this.verbose === 2) {
      const target = this.target;
      if (fin && target !== null && target > 0) {
        const digits = Number.isInteger(target) ? String(target).length : Math.floor(Math.log10(target)) + 1;
        let info = `${pad(current, digits)}/${Math.trunc(target)} - ${pyFixed(now - this.start, 0)}s -${this.formatTime(timePerUnit)}`;
        for (const [k, [sum, count]] of this.values) {
          const avg = sum / Math.max(1, count);
          info += ` - ${k}: ${avg > 1e-3 ? pyFixed(avg, 4) : pyExp(avg, 4)}`;
        }
        this.stream.write(`${info}\n`);
      }
    }
    this.lastUpdate = now;
  }

  /** Advances the step count by `n` (update(seen + n, values)). */
  add(n: number, values?: readonly (readonly [string, ProgbarValue])[] | null): void {
    this.update(this.seenSoFar + n, values);
  }

  private formatTime(timePerUnit: number): string {
    if (timePerUnit >= 1 || timePerUnit === 0) return ` ${pyFixed(timePerUnit, 0)}s/${this.unitName}`;
    if (timePerUnit >= 1e-3) return ` ${pyFixed(timePerUnit * 1000, 0)}ms/${this.unitName}`;
    return ` ${pyFixed(timePerUnit * 1_000_000, 0)}us/${this.unitName}`;
  }

  /** Keras's estimate: ignores the first step (often slow) once there are more. */
  private estimateStepDuration(current: number, now: number): number {
    if (!current) return 0;
    const perUnit = this.timeAfterFirstStep !== null && current > 1 ? (now - this.timeAfterFirstStep) / (current - 1) : (now - this.start) / current;
    if (current === 1) this.timeAfterFirstStep = now;
    return perUnit;
  }
}
