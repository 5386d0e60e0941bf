// Every case row and error row, without Jest: what Node's checkers (index.ts) and the browser page (browser_rows.ts) iterate.
import type { ErrorCase, ForwardCase } from './case';
import { elementwiseCases, elementwiseErrors } from './cases_elementwise';
import { miscCases, miscErrors } from './cases_misc';
import { reduceCases, reduceErrors } from './cases_reduce';
import { shapeCases, shapeErrors } from './cases_shape';
import { tfCases, tfErrors } from './cases_tf';
import { imageCases, imageErrors } from './cases_image';
import { convCases, convErrors } from './cases_conv';
import { nnActCases, nnActErrors } from './cases_nn_act';
import { poolCases, poolErrors } from './cases_pool';
import { normCases, normErrors } from './cases_norm';
import { mathCases, mathErrors } from './cases_math';
import { reductionCases, reductionErrors } from './cases_reduction';
import { transformationCases, transformationErrors } from './cases_transformation';
import { sliceCases, sliceErrors } from './cases_slice';
import { manipCases, manipErrors } from './cases_manip';
import { segmentCases, segmentErrors } from './cases_segment';
import { randomCases, randomErrors } from './cases_random';
import { linalgCases, linalgErrors } from './cases_linalg';
import { decompCases, decompErrors } from './cases_decomp';
import { image2Cases, image2Errors } from './cases_image_composites';
import { signalCases, signalErrors } from './cases_signal';
import { random2Cases, random2Errors } from './cases_random_gamma';
import { dynamicCases, dynamicErrors } from './cases_dynamic';

/** Every forward case (each names the primitive and the public op it covers); every checker runs these. */
export const forwardCases: ForwardCase[] = [
  ...elementwiseCases, ...reduceCases, ...shapeCases, ...miscCases, ...tfCases, ...imageCases, ...convCases, ...nnActCases, ...poolCases, ...normCases,
  ...mathCases, ...reductionCases, ...transformationCases, ...sliceCases, ...manipCases, ...segmentCases, ...randomCases, ...linalgCases, ...decompCases, ...image2Cases, ...signalCases, ...random2Cases, ...dynamicCases,
];

/** Every error case: bad dtypes and shapes must throw InvalidArgumentError naming op, got and expected. */
export const errorCases: ErrorCase[] = [
  ...elementwiseErrors, ...reduceErrors, ...shapeErrors, ...miscErrors, ...tfErrors, ...imageErrors, ...convErrors, ...nnActErrors, ...poolErrors, ...normErrors,
  ...mathErrors, ...reductionErrors, ...transformationErrors, ...sliceErrors, ...manipErrors, ...segmentErrors, ...randomErrors, ...linalgErrors, ...decompErrors, ...image2Errors, ...signalErrors, ...random2Errors, ...dynamicErrors,
];
