// The TensorFlow golden fixtures' format (written by scripts/tf-golden) and the decoding of their lossless numbers (no fs: the browser page uses it too).
/** A number as stored: JSON numbers, or 'nan' | 'inf' | '-inf' | '-0' (JSON has none of them). */
export type Num = number | 'nan' | 'inf' | '-inf' | '-0';
export type Scalar = Num | boolean | string;

export interface EncTensor {
  dtype: string;
  shape: number[];
  data: Scalar[];
}

export type EncArg = { tensor: EncTensor } | { tensors: EncTensor[] } | { value: unknown };

export interface TfError {
  class: string;
  message: string;
}

export interface GradFixture {
  wrt: number[];
  dy: EncTensor;
  first?: EncTensor[];
  second?: EncTensor[];
  error?: TfError;
}

export interface Case {
  name: string;
  args: EncArg[];
  tags: string[];
  /** One output (`value`), several in ef's order (`values`: topK, unique, split...), or TF's error. */
  expect: { value: EncTensor } | { values: EncTensor[] } | { error: TfError };
  grad?: GradFixture;
}

export interface OpFixture {
  op: string;
  tf_version: string;
  cases: Case[];
}

export function decodeNum(v: Scalar): number | boolean | string {
  switch (v) {
    case 'nan':
      return NaN;
    case 'inf':
      return Infinity;
    case '-inf':
      return -Infinity;
    case '-0':
      return -0;
    default:
      return v;
  }
}

/** A fixture literal (axes, shapes, values): `{num: 'nan'}` objects become numbers, recursively. */
export function decodeLiteral(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(decodeLiteral);
  if (v !== null && typeof v === 'object' && 'num' in v) return decodeNum((v as { num: Num }).num);
  return v;
}

/** Row-major values of a tensor, numbers decoded (strings of string tensors kept). */
export function values(t: EncTensor): (number | boolean | string)[] {
  return t.dtype === 'string' ? (t.data as string[]) : t.data.map(decodeNum);
}

export function isError(c: Case): c is Case & { expect: { error: TfError } } {
  return 'error' in c.expect;
}
