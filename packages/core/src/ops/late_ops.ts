// Fills values/'s late-bound op table (values/tensor.ts's LateOps): conversion casts and `x.at(...)` reach their
// records through it, so values/ imports no op file.
import { provideLateOps } from '../values/tensor';
import { bind } from './bind';
import { cast } from './math/cast';
import { at } from './array/numpy_indexing';

provideLateOps({
  cast: (x, dtype) => bind(cast, [x], { dtype })[0],
  at: (x, indices) => at(x, ...indices),
});
