// Jest hooks for the tests of ONNX Runtime segments themselves: the retrace warning quiet (they trace many small
// functions), and every segment compiled: the small-segment rule would keep cheap elementwise runs on the fused host
// loop (tested on its own in onnx_small_segments.test.ts).
import * as ef from 'eagerflow';

export function everySegmentInOnnxRuntime(): void {
  const quiet = ef.retraceConfig.warn;
  beforeAll(() => (ef.retraceConfig.warn = () => undefined));
  afterAll(() => (ef.retraceConfig.warn = quiet));
  beforeEach(() => (ef.internal.fuseConfig.smallSegmentsOnHost = false));
  afterEach(() => (ef.internal.fuseConfig.smallSegmentsOnHost = true));
}
