// Every forward case of the primitive harness through trace -> saveFunction -> loadFunction -> call (values, dtypes, shapes, leaks).
import * as ef from 'eagerflow';
import { Mode, forwardSuite, unknownDimsSpec } from '../../../test/harness';

/**
 * Saved: a fresh trace per run, saved to in-memory artifacts and loaded back; the loaded function
 * runs the case. Variables the op reads are captured by closure (variable arguments are not saved).
 * With `unknownDims`, the saved signature has every dim null (as the traced unknown-dims mode).
 */
const savedMode = (name: string, unknownDims: boolean): Mode => ({
  name,
  unknownDims,
  run(fn, inputs) {
    const warn = ef.retraceConfig.warn;
    ef.retraceConfig.warn = () => undefined;
    const usesVariables = inputs.some((x) => (x as unknown) instanceof ef.Variable);
    const f = usesVariables ? ef.trace(() => fn(...inputs)) : ef.trace(fn);
    const args = usesVariables ? [] : inputs;
    let loaded: ef.LoadedFunction<ef.Tensor> | null = null;
    try {
      const cf = f.getConcreteFunction(...(unknownDims ? args.map(unknownDimsSpec) : args));
      loaded = ef.loadFunction<ef.Tensor>(ef.saveFunction(cf));
      return loaded(...args);
    } finally {
      loaded?.dispose();
      f.dispose();
      ef.retraceConfig.warn = warn;
    }
  },
});

forwardSuite(savedMode('saved', false));
// Saved with every dim unknown: the graph keeps its dynamic-shape ops (Shape, BroadcastArgs, ...) through save and load.
forwardSuite(savedMode('saved, unknown dims', true));
