// ef.config.runFunctionsEagerly (tf.config.run_functions_eagerly) and ef.initScope (tf.init_scope).
import { withBuilder } from './builder';

const state = { eager: false };

/**
 * TF's `tf.config`: `runFunctionsEagerly(true)` makes every `ef.trace` function run its body eagerly on each
 * call (no tracing: breakpoints, console.log and host code run every call, values can be read), for debugging.
 * @example
 * ef.config.runFunctionsEagerly(true);
 * const seen: number[] = [];
 * const f = ef.trace((x) => { seen.push(x.item()); return ef.add(x, 1); });
 * f(ef.constant(1)); f(ef.constant(2));
 * ef.config.runFunctionsEagerly(false);
 * seen; // [1, 2]
 */
export const config = {
  runFunctionsEagerly(runEagerly: boolean): void {
    state.eager = runEagerly === true;
  },
  functionsRunEagerly(): boolean {
    return state.eager;
  },
};

/** Whether traced functions run their bodies eagerly now. */
export const functionsRunEagerly = (): boolean => state.eager;

/** The same as a field (`runEagerly.eager`): every call of a traced function reads it, and reads it without a call. */
export const runEagerly: { readonly eager: boolean } = state;

/**
 * TF's `tf.init_scope`: runs `fn` outside any trace and with tapes paused, so what it creates is eager
 * (variables' initial values, lookup tables) even when called from a traced function's body.
 * @example
 * let eager = false;
 * const f = ef.trace((x) => {
 *   const c = ef.initScope(() => ef.add(ef.constant(1), 1));
 *   eager = !c.isSymbolic;
 *   return ef.add(x, c);
 * });
 * f(ef.constant(1)).item(); // 3
 * eager; // true
 */
export function initScope<T>(fn: () => T): T {
  return withBuilder(null, fn);
}
