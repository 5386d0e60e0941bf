// ef.errors (API section 7): the OpError hierarchy, constructible by user code, and what ops throw.
import * as ef from 'eagerflow';
import { thrown } from '../../../test/harness/thrown';

const SUBCLASSES = [
  'InvalidArgumentError',
  'UnknownError',
  'OutOfRangeError',
  'UnimplementedError',
  'FailedPreconditionError',
  'NotFoundError',
] as const;

describe('ef.errors classes', () => {
  test.each(SUBCLASSES)('%s is an OpError constructed as new X(message, {cause, opName})', (name) => {
    const Cls = ef.errors[name];
    const cause = new Error('root');
    const e = new Cls('something failed', { cause, opName: 'my_op' });
    expect(e).toBeInstanceOf(Cls);
    expect(e).toBeInstanceOf(ef.errors.OpError);
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe(name);
    expect(e.message).toBe('something failed');
    expect(e.cause).toBe(cause);
    expect(e.opName).toBe('my_op');
    expect(String(e)).toBe(`${name}: something failed`);
    expect(e.stack).toContain('something failed');
  });

  test.each(SUBCLASSES)('%s options are optional (opName null, cause undefined)', (name) => {
    const e = new ef.errors[name]('m');
    expect(e.opName).toBeNull();
    expect(e.cause).toBeUndefined();
  });

  test('OpError itself is constructible and the subclasses are distinct', () => {
    const e = new ef.errors.OpError('base', { opName: 'x' });
    expect(e.name).toBe('OpError');
    expect(new ef.errors.OutOfRangeError('end')).not.toBeInstanceOf(ef.errors.InvalidArgumentError);
  });

  test('user code can throw and catch them by class', () => {
    const f = (): never => {
      throw new ef.errors.OutOfRangeError('End of sequence', { opName: 'iterator' });
    };
    try {
      f();
      throw new Error('unreachable');
    } catch (e) {
      expect(e instanceof ef.errors.OutOfRangeError && e.opName).toBe('iterator');
    }
  });
});

describe('what ops throw', () => {
  test('bad shapes and dtypes are InvalidArgumentErrors with opName and a fix', () => {
    const x = ef.constant([1, 2]);
    const y = ef.constant([1, 2, 3]);
    const caught = thrown(() => ef.add(x, y));
    expect(caught).toBeInstanceOf(ef.errors.InvalidArgumentError);
    const e = caught as ef.errors.InvalidArgumentError;
    expect(e.opName).toBe('add');
    expect(e.message).toBe('add: incompatible shapes for broadcasting (got [2] and [3], expected shapes whose trailing dims are equal or 1). Reshape or expandDims one input so the shapes broadcast.');
    ef.dispose([x, y]);
  });

  test('kernel failures keep the original error as cause', () => {
    const x = ef.constant([1, 2, 3]);
    const i = ef.constant([7], 'int32');
    const caught = thrown(() => ef.gather(x, i));
    expect(caught).toBeInstanceOf(ef.errors.InvalidArgumentError);
    expect((caught as ef.errors.OpError).message).toBe('gather: an index is out of range (got index 7, expected indices in [0, 3)). Clamp or fix the indices.');
    expect((caught as ef.errors.OpError).cause).toBeInstanceOf(Error);
    ef.dispose([x, i]);
  });
});
