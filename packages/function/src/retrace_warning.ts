// The frequent-retracing warning (TensorFlow's: 5 of the last 10 calls traced; at most 2 warnings).
export const retraceConfig = { window: 10, threshold: 5, maxWarnings: 2, warn: (msg: string): void => console.warn(msg) };

/** One detector per function source (re-creating a traced function in a loop shares it). */
export class RetraceDetector {
  private static readonly bySource = new Map<string, RetraceDetector>();
  private history: boolean[] = [];
  private warnings = 0;

  private constructor(readonly name: string) {}

  static for(fn: (...a: never[]) => unknown, name: string): RetraceDetector {
    const key = Function.prototype.toString.call(fn);
    let d = RetraceDetector.bySource.get(key);
    if (d === undefined) {
      d = new RetraceDetector(name);
      RetraceDetector.bySource.set(key, d);
    }
    return d;
  }

  /** How many entries of `history` are true. */
  private traced = 0;
  /**
   * The window size while the history is that full and holds no trace (a cache hit then changes nothing: callers
   * skip `record(false)` while it equals retraceConfig.window), else -1.
   */
  idleWindow = -1;

  record(traced: boolean): void {
    // The common call (a cache hit while the window holds no trace) leaves the history as it is: all false, full.
    if (!traced && this.traced === 0 && this.history.length === retraceConfig.window) {
      this.idleWindow = retraceConfig.window;
      return;
    }
    this.idleWindow = -1;
    this.history.push(traced);
    if (traced) this.traced++;
    while (this.history.length > retraceConfig.window) if (this.history.shift() === true) this.traced--;
    const n = this.traced;
    if (traced && n >= retraceConfig.threshold && this.warnings < retraceConfig.maxWarnings) {
      this.warnings++;
      retraceConfig.warn(
        `${n} out of the last ${this.history.length} calls to ${this.name} triggered ef.trace retracing. Tracing is expensive and the excessive number of tracings could be due to (1) creating ef.trace functions repeatedly in a loop, (2) passing tensors with different shapes, (3) passing JS objects or values instead of tensors. For (1), define your traced function outside of the loop. For (2), ef.trace has the reduceRetracing: true option that can avoid unnecessary retracing. For (3), pass tensors, or use an inputSignature.`,
      );
    }
  }
}
