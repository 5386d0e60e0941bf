// ef.print: prints tensors and strings when the op runs (per call inside traced functions).
import { bind } from '../bind';
import { Tensor } from '../../values/tensor';
import { TensorLike, convert } from '../../values/convert';
import { print as printP } from './identity';

export { printOutput } from '../../values/print_values';

/**
 * Prints its arguments when it runs: eagerly at once, inside ef.trace at every call. Tensors are
 * shown like tf.print shows them (3 items at each end of long dims).
 * @example
 * ef.print('x:', ef.constant([1, 2.5])); // x: [1 2.5]
 */
export function print(...values: (TensorLike | string)[]): void {
  const template: (string | null)[] = [];
  const tensors: Tensor[] = [];
  const temps: Tensor[] = [];
  for (const v of values) {
    if (typeof v === 'string') {
      template.push(v);
      continue;
    }
    const c = convert('print', v);
    template.push(null);
    tensors.push(c.t);
    if (c.temp) temps.push(c.t);
  }
  bind(printP, tensors, { template });
  temps.forEach((t) => t.dispose());
}
