// ef.summary's behaviour: writes inside traced functions at every run (with that run's step), default writers,
// queueing and flushing, graph(), and clear errors for bad input that leave no tensor behind.
import * as fs from 'node:fs';
import * as ef from 'eagerflow';
import { decodeTfProto } from '@eagerflow/saving';
import { eventFile, readEvents, tempLogdir } from './helpers';
import { thrown } from '../../../../test/harness/thrown';

const scalarOf = (e: Record<string, any>): number => Buffer.from(e.summary.value[0].tensor.tensor_content).readFloatLE(0); // eslint-disable-line @typescript-eslint/no-explicit-any

describe('inside ef.trace', () => {
  test('a summary writes at every call with that call\'s value and tensor step, never at trace time', () => {
    const dir = tempLogdir();
    const writer = ef.summary.createFileWriter(dir);
    const step = new ef.Variable(0, { dtype: 'int32' });
    const f = ef.trace((x: ef.Tensor) => {
      const loss = ef.reduceMean(ef.square(x));
      ef.summary.scalar('loss', loss, { step: step.value() });
      ef.summary.histogram('x', x, { step: step.value(), buckets: 4 });
      return loss;
    });
    writer.asDefault(() => {
      f.getConcreteFunction(new ef.TensorSpec([3]));
    });
    writer.flush();
    expect(readEvents(dir)).toHaveLength(1); // only file_version: tracing wrote nothing
    const before = ef.memory().numTensors;
    for (let i = 1; i <= 3; i++) {
      const v = ef.constant(i * 10, 'int32');
      step.assign(v);
      v.dispose();
      const x = ef.constant([i, i, 2 * i]);
      f(x).dispose();
      x.dispose();
    }
    expect(ef.memory().numTensors).toBe(before);
    writer.close();
    const events = readEvents(dir).slice(1);
    expect(events.map((e) => [e.step, e.summary.value[0].tag])).toEqual([[10, 'loss'], [10, 'x'], [20, 'loss'], [20, 'x'], [30, 'loss'], [30, 'x']]);
    expect(scalarOf(events[0])).toBeCloseTo(2, 6);
    expect(scalarOf(events[4])).toBeCloseTo(18, 5);
    step.dispose();
  });

  test('a Variable step (the optimizer\'s iterations) is read at every run, eagerly and traced', () => {
    const dir = tempLogdir();
    const writer = ef.summary.createFileWriter(dir);
    const opt = new ef.optimizers.SGD({ learningRate: 0.1 });
    const w = new ef.Variable([1]);
    const step = ef.trace(() => {
      const loss = opt.minimize(() => ef.reduceSum(ef.square(w)), [w]);
      ef.summary.scalar('loss', loss, { step: opt.iterations });
      return loss;
    });
    const before = ef.memory().numTensors;
    writer.asDefault(() => {
      for (let i = 0; i < 2; i++) step().dispose();
      ef.summary.scalar('eager', 1, { step: opt.iterations });
    });
    expect(ef.memory().numTensors).toBe(before);
    writer.close();
    expect(readEvents(dir).slice(1).map((e) => [e.summary.value[0].tag, e.step])).toEqual([['loss', 1], ['loss', 2], ['eager', 2]]);
    w.dispose();
  });

  test('the writer is the default one at trace time (as TF captures it); a number step is fixed at trace time', () => {
    const a = tempLogdir();
    const wa = ef.summary.createFileWriter(a);
    const f = ef.trace((x: ef.Tensor) => {
      ef.summary.scalar('v', x, { step: 5 });
      return ef.identity(x);
    });
    wa.asDefault(() => f(ef.constant(1)).dispose());
    f(ef.constant(2)).dispose(); // no default writer now, same trace: still writes to wa
    wa.close();
    expect(readEvents(a).slice(1).map((e) => [e.step, scalarOf(e)])).toEqual([[5, 1], [5, 2]]);
  });

  test('bad data found only at run time (an int32 pixel out of range) is an InvalidArgumentError from the call', () => {
    const dir = tempLogdir();
    const writer = ef.summary.createFileWriter(dir);
    const f = ef.trace((img: ef.Tensor) => {
      ef.summary.image('img', img, { step: 1 });
      return ef.identity(img);
    });
    const ok = ef.constant([[[[10]]]], 'int32');
    const bad = ef.constant([[[[256]]]], 'int32');
    writer.asDefault(() => f(ok).dispose());
    const before = ef.memory().numTensors;
    const caught = thrown(() => f(bad));
    expect(caught).toBeInstanceOf(ef.errors.InvalidArgumentError);
    expect(String((caught as Error).message)).toMatch(/int32 image value 256/);
    expect(ef.memory().numTensors).toBe(before);
    writer.close();
    expect(readEvents(dir)).toHaveLength(2);
    ef.dispose([ok, bad]);
  });
});

describe('writers', () => {
  test('no default writer: the calls return false and write nothing; asDefault restores the previous default', () => {
    ef.summary.setDefaultWriter(null);
    expect(ef.summary.scalar('x', 1, { step: 0 })).toBe(false);
    const w1 = ef.summary.createFileWriter(tempLogdir());
    const w2 = ef.summary.createFileWriter(tempLogdir());
    w1.setAsDefault();
    w2.asDefault(() => expect(ef.summary.getDefaultWriter()).toBe(w2));
    expect(ef.summary.getDefaultWriter()).toBe(w1);
    expect(() => w2.asDefault(() => { throw new Error('boom'); })).toThrow('boom');
    expect(ef.summary.getDefaultWriter()).toBe(w1);
    ef.summary.setDefaultWriter(null);
    w1.close();
    w2.close();
  });

  test('file name and first event as TF writes them; maxQueue holds events until flush', () => {
    const dir = tempLogdir();
    const w = ef.summary.createFileWriter(dir, { maxQueue: 3, filenameSuffix: '.mine' });
    expect(w.path).toMatch(/events\.out\.tfevents\.\d{10}\.[^/]+\.\d+\.\d+\.mine$/);
    w.asDefault(() => {
      ef.summary.scalar('a', 1, { step: 1 });
      ef.summary.scalar('a', 2, { step: 2 });
    });
    expect(readEvents(dir)).toHaveLength(1);
    w.asDefault(() => {
      ef.summary.scalar('a', 3, { step: 3 });
      ef.summary.scalar('a', 4, { step: 4 }); // the 4th queued event: more than maxQueue, written
    });
    expect(readEvents(dir)).toHaveLength(5);
    w.asDefault(() => ef.summary.scalar('a', 5, { step: 5 }));
    ef.summary.flush(w);
    const events = readEvents(dir);
    expect(events).toHaveLength(6);
    expect(events[0]).toEqual({ wall_time: expect.any(Number), file_version: 'brain.Event:2', source_metadata: { writer: 'eagerflow' } });
    expect(Number.isInteger(events[0].wall_time)).toBe(true);
    w.close();
    w.close(); // twice is fine
  });

  test('flushMillis writes queued events without a flush() call; an unclosed writer writes its queue at exit', async () => {
    const dir = tempLogdir();
    const w = ef.summary.createFileWriter(dir, { flushMillis: 300 });
    w.asDefault(() => ef.summary.scalar('a', 1, { step: 1 }));
    w.flush();
    w.asDefault(() => ef.summary.scalar('a', 2, { step: 2 }));
    expect(readEvents(dir)).toHaveLength(2); // queued
    await new Promise((r) => setTimeout(r, 700));
    expect(readEvents(dir)).toHaveLength(3); // the timer wrote it
    w.close();
    const exitDir = tempLogdir();
    const code = `const ef = require('eagerflow'); const w = ef.summary.createFileWriter(${JSON.stringify(exitDir)}); w.asDefault(() => ef.summary.scalar('a', 1, { step: 1 }));`;
    const r = require('node:child_process').spawnSync(process.execPath, ['-e', code], { cwd: require('node:path').resolve(__dirname, '../../../..'), encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(readEvents(exitDir)).toHaveLength(2);
  });

  test('graph() writes the traced function\'s GraphDef as tensorflow.GraphDef bytes', () => {
    const dir = tempLogdir();
    const w = ef.summary.createFileWriter(dir);
    const cf = ef.trace((x: ef.Tensor, y: ef.Tensor) => ef.relu(ef.add(ef.matmul(x, y), 1))).getConcreteFunction(new ef.TensorSpec([2, 3]), new ef.TensorSpec([3, 4]));
    expect(w.asDefault(() => ef.summary.graph(cf))).toBe(true);
    w.close();
    const [, e] = readEvents(dir);
    const g = decodeTfProto<{ node: { name: string; op: string; input?: string[] }[] }>('tensorflow.GraphDef', e.graph_def);
    expect(g.node.map((n) => n.op)).toEqual(cf.toGraphDef().node.map((n) => n.op));
    expect(g.node.map((n) => n.op)).toEqual(expect.arrayContaining(['Placeholder', 'MatMul', 'Relu', 'Identity']));
  });
});

describe('bad input: clear errors, nothing written, no tensor left', () => {
  let dir: string;
  let w: ef.summary.SummaryWriter;
  beforeAll(() => {
    dir = tempLogdir();
    w = ef.summary.createFileWriter(dir, { maxQueue: 0 });
  });
  afterAll(() => w.close());

  // [name, input (built before counting tensors), call, message, class]
  type Input = ef.Tensor | number | string | number[] | string[];
  const cases: [string, () => Input, (x: any) => unknown, RegExp, Function][] = [ // eslint-disable-line @typescript-eslint/no-explicit-any
    ['empty tag', () => 1, (x) => ef.summary.scalar('', x, { step: 0 }), /summary\.scalar.*non-empty string/, ef.errors.InvalidArgumentError],
    ['tag not a string', () => 1, (x) => ef.summary.scalar(3 as unknown as string, x, { step: 0 }), /non-empty string/, ef.errors.InvalidArgumentError],
    ['non-scalar scalar', () => [1, 2], (x) => ef.summary.scalar('s', x, { step: 0 }), /summary\.scalar.*rank 0 \(a scalar\).*shape \[2\]/s, ef.errors.InvalidArgumentError],
    ['non-scalar scalar tensor', () => ef.zeros([2, 1]), (x) => ef.summary.scalar('s', x, { step: 0 }), /rank 0.*shape \[2, 1\]/s, ef.errors.InvalidArgumentError],
    ['string scalar', () => 'x', (x) => ef.summary.scalar('s', x, { step: 0 }), /dtype string/, ef.errors.InvalidArgumentError],
    ['no step', () => 1, (x) => ef.summary.scalar('s', x), /no step given/, ef.errors.InvalidArgumentError],
    ['fractional step', () => 1, (x) => ef.summary.scalar('s', x, { step: 1.5 }), /step must be an integer/, ef.errors.InvalidArgumentError],
    ['float Variable step of rank 1', () => ef.constant([1, 2]), (v) => { const sv = new ef.Variable(v); try { return ef.summary.scalar('s', 1, { step: sv }); } finally { sv.dispose(); } }, /step must be a scalar/, ef.errors.InvalidArgumentError],
    ['vector step', () => ef.constant([1, 2], 'int32'), (s) => ef.summary.scalar('s', 1, { step: s }), /step must be a scalar/, ef.errors.InvalidArgumentError],
    ['image rank 3', () => ef.zeros([2, 2, 3]), (x) => ef.summary.image('i', x, { step: 0 }), /summary\.image.*rank 4 \(\[batch, height, width, channels\]\)/s, ef.errors.InvalidArgumentError],
    ['image bool', () => ef.constant([[[[true]]]]), (x) => ef.summary.image('i', x, { step: 0 }), /dtype bool.*float32 or int32/s, ef.errors.InvalidArgumentError],
    ['image 5 channels', () => ef.zeros([1, 2, 2, 5]), (x) => ef.summary.image('i', x, { step: 0 }), /1 to 4 channels/, ef.errors.InvalidArgumentError],
    ['int32 image out of range', () => ef.constant([[[[300]]]], 'int32'), (x) => ef.summary.image('i', x, { step: 0 }), /int32 image value 300.*outside \[0, 255\]/s, ef.errors.InvalidArgumentError],
    ['negative maxOutputs', () => ef.zeros([1, 2, 2, 3]), (x) => ef.summary.image('i', x, { step: 0, maxOutputs: -1 }), /maxOutputs must be an integer >= 0/, ef.errors.InvalidArgumentError],
    ['text of numbers', () => 1, (x) => ef.summary.text('t', x, { step: 0 }), /summary\.text.*dtype float32/s, ef.errors.InvalidArgumentError],
    ['audio rank 2', () => ef.zeros([4, 1]), (x) => ef.summary.audio('a', x, { step: 0, sampleRate: 8000 }), /rank 3/, ef.errors.InvalidArgumentError],
    ['audio without sampleRate', () => ef.zeros([1, 4, 1]), (x) => ef.summary.audio('a', x, { step: 0 } as ef.summary.AudioOptions), /sampleRate must be an integer >= 1/, ef.errors.InvalidArgumentError],
    ['histogram of strings', () => ['a'], (x) => ef.summary.histogram('h', x, { step: 0 }), /dtype string/, ef.errors.InvalidArgumentError],
    ['graph of a number', () => 3, (x) => ef.summary.graph(x), /expected a ConcreteFunction or a GraphDef/, ef.errors.InvalidArgumentError],
  ];
  test.each(cases)('%s', (_name, make, call, message, cls) => {
    const input = make();
    const before = ef.memory().numTensors;
    const size = fs.statSync(eventFile(dir)).size;
    const caught = thrown(() => w.asDefault(() => call(input)));
    expect(caught).toBeInstanceOf(cls);
    expect(String((caught as Error).message)).toMatch(message);
    expect(ef.memory().numTensors).toBe(before);
    expect(fs.statSync(eventFile(dir)).size).toBe(size);
    if (input instanceof ef.Tensor) input.dispose();
  });

  test('graph() inside a traced function: FailedPreconditionError (as TF refuses it in a graph context)', () => {
    const cf = ef.trace((x: ef.Tensor) => ef.exp(x)).getConcreteFunction(new ef.TensorSpec([1]));
    const f = ef.trace((x: ef.Tensor) => {
      ef.summary.graph(cf);
      return ef.identity(x);
    });
    const x = ef.constant([1]);
    expect(() => w.asDefault(() => f(x))).toThrow(ef.errors.FailedPreconditionError);
    expect(() => w.asDefault(() => f(x))).toThrow(/summary\.graph.*called while tracing/s);
    x.dispose();
  });

  test('a closed writer: FailedPreconditionError naming the file', () => {
    const d = tempLogdir();
    const closed = ef.summary.createFileWriter(d);
    closed.close();
    const x = ef.constant(1);
    const before = ef.memory().numTensors;
    expect(() => closed.asDefault(() => ef.summary.scalar('s', x, { step: 0 }))).toThrow(ef.errors.FailedPreconditionError);
    expect(() => closed.asDefault(() => ef.summary.scalar('s', x, { step: 0 }))).toThrow(/is closed.*createFileWriter/s);
    expect(ef.memory().numTensors).toBe(before);
    x.dispose();
  });

  test('without a filesystem (browsers): createFileWriter is a FailedPreconditionError saying why', () => {
    const proc = process as unknown as { getBuiltinModule?: unknown };
    const saved = proc.getBuiltinModule;
    proc.getBuiltinModule = undefined;
    try {
      expect(() => ef.summary.createFileWriter('logs')).toThrow(ef.errors.FailedPreconditionError);
      expect(() => ef.summary.createFileWriter('logs')).toThrow(/no filesystem here.*Node\.js/s);
    } finally {
      proc.getBuiltinModule = saved;
    }
  });

  test('bad writer options', () => {
    expect(() => ef.summary.createFileWriter('')).toThrow(/logdir must be a non-empty string/);
    expect(() => ef.summary.createFileWriter(tempLogdir(), { maxQueue: -1 })).toThrow(/maxQueue must be a non-negative integer/);
    expect(() => ef.summary.createFileWriter(tempLogdir(), { filenameSuffix: 'a/b' })).toThrow(/filenameSuffix/);
  });
});
