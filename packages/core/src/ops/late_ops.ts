// Fills values/'s late-bound op tables (values/tensor.ts's LateOps, values/variable.ts's VariableOps): conversion
// casts, `x.at(...)` and variable reads and assignments reach their records through them, so values/ imports no op file.
import { provideLateOps } from '../values/tensor';
import { variableOps } from '../values/variable';
import { bind } from './bind';
import { cast } from './math/cast';
import { at } from './array/numpy_indexing';
import { assignVariableOf, readVariableOf } from './state/variable_ops';

provideLateOps({
  cast: (x, dtype) => bind(cast, [x], { dtype })[0],
  at: (x, indices) => at(x, ...indices),
});
variableOps.provide({ read: readVariableOf, assign: assignVariableOf });
