// ef.sparse: TF's tf.sparse ops on ef.SparseTensor.
export { toDense, fromDense, add, sparseDenseMatmul } from './sparse_tensor';
