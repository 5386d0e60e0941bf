// GradientTape state ported from TensorFlow's backprop_test.py: persistence, re-entry, stopRecording, reset, variables.
import * as ef from 'eagerflow';
import { captureWarnings, noLeak, taped, val } from './tape_helpers';

const warn = captureWarnings();

/** Runs `fn` with fresh variables and disposes them afterwards (variables outlive ef.tidy). */
function withVariables(values: number[], fn: (...vs: ef.Variable[]) => void, options: ef.VariableOptions = {}): void {
  const vs = values.map((v) => new ef.Variable(v, options));
  try {
    noLeak(() => fn(...vs));
  } finally {
    vs.forEach((v) => v.dispose());
  }
}

describe('persistent and non-persistent tapes', () => {
  test('testGradientTapeGradientCalledMultipleTimes: a second gradient on a non-persistent tape throws', () =>
    noLeak(() => {
      const x = ef.constant(3);
      const g = new ef.GradientTape();
      let y: ef.Tensor | null = null;
      const z = g.record(() => {
        g.watch(x);
        y = ef.multiply(x, x);
        return ef.multiply(y, y);
      });
      g.gradient(z, [x]);
      expect(() => g.gradient(y, [x])).toThrow(/non-persistent/);
      expect(() => g.gradient(y, [x])).toThrow('GradientTape.gradient: A non-persistent GradientTape can only be used to compute one set of gradients (or jacobians)');
      expect(() => g.jacobian(z, x)).toThrow(/GradientTape.jacobian: A non-persistent/);
      expect(() => g.batchJacobian(z, x)).toThrow(/GradientTape.batchJacobian: A non-persistent/);
    }));

  test('testPersistentTape: dz/dx = 108 then dy/dx = 6', () =>
    noLeak(() => {
      const x = ef.constant(3);
      const g = new ef.GradientTape({ persistent: true });
      let y: ef.Tensor | null = null;
      const z = g.record(() => {
        g.watch(x);
        y = ef.multiply(x, x);
        return ef.multiply(y, y);
      });
      expect(val(g.gradient(z, [x])[0])).toBe(4 * 3 * 3 * 3);
      expect(val(g.gradient(y, [x])[0])).toBe(2 * 3);
      g.dispose();
      expect(() => g.gradient(z, x)).toThrow(/GradientTape.gradient: the tape was disposed/);
    }));

  test('testGradientTapeReEnterContext: record twice on one tape continues it (4)', () =>
    noLeak(() => {
      const g = new ef.GradientTape();
      const x = ef.constant(3);
      const y = g.record(() => {
        g.watch(x);
        return ef.multiply(2, x);
      });
      const z = g.record(() => ef.multiply(2, y));
      expect(g.gradient(z, [x]).map(val)).toEqual([4]);
    }));

  test('a consumed non-persistent tape recorded again starts afresh (TensorFlow pushes a new tape)', () =>
    noLeak(() => {
      const g = new ef.GradientTape();
      const x = ef.constant(3);
      const y = g.record(() => (g.watch(x), ef.multiply(x, x)));
      expect(val(g.gradient(y, x))).toBe(6);
      const z = g.record(() => (g.watch(x), ef.multiply(x, 5)));
      expect(val(g.gradient(z, x))).toBe(5);
    }));

  test('testNestedSelfContexts: re-entering an active tape throws', () => {
    const t = new ef.GradientTape();
    t.record(() => {
      expect(() => t.record(() => undefined)).toThrow('GradientTape.record: Tape is still recording, This can happen if you try to re-enter an already-active tape');
    });
  });

  test('record rejects an async function', () => {
    const t = new ef.GradientTape();
    expect(() => t.record(async () => undefined)).toThrow(/returned a Promise/);
  });

  test('testGradientWithinTapeBlock: gradient inside record works on both kinds of tape', () =>
    withVariables([1], (v1) => {
      const t = new ef.GradientTape();
      const g1 = t.record(() => t.gradient(ef.multiply(2, v1), v1));
      expect(val(g1)).toBe(2);
      const p = new ef.GradientTape({ persistent: true });
      const g2 = p.record(() => p.gradient(ef.multiply(2, v1), v1));
      expect(val(g2)).toBe(2);
      expect(warn()).toHaveBeenCalledWith(expect.stringContaining('persistent tape inside its record()'));
      p.dispose();
    }));

  test('a non-persistent gradient inside record stops recording for the rest of it', () =>
    noLeak(() => {
      const x = ef.constant(3);
      const t = new ef.GradientTape();
      t.record(() => {
        t.watch(x);
        t.gradient(ef.multiply(x, x), x);
        expect(() => t.stopRecording(() => undefined)).toThrow(/not recording/);
        expect(ef.internal.ctx.tapes).not.toContain(t);
      });
    }));
});

describe('stopRecording and reset', () => {
  test('testTapeStopRecording: ops under stopRecording give null', () =>
    withVariables([1], (x) => {
      const t = new ef.GradientTape();
      const y = t.record(() => t.stopRecording(() => ef.multiply(x, x)));
      expect(t.gradient(y, x)).toBeNull();
    }));

  test('testTapeStopStartRecording: y under stopRecording is null, z after it is 4', () =>
    withVariables([1], (x) => {
      const t = new ef.GradientTape({ persistent: true });
      const [x2, y, z] = t.record(() => {
        const x2 = ef.multiply(x, 2);
        const y = t.stopRecording(() => ef.multiply(x2, x2));
        return [x2, y, ef.multiply(x2, x2)];
      });
      expect(t.gradient(y, x2)).toBeNull();
      expect(val(t.gradient(z, x2))).toBe(4);
      t.dispose();
    }));

  test('stopRecording outside record throws like TensorFlow', () => {
    const t = new ef.GradientTape();
    expect(() => t.stopRecording(() => 1)).toThrow('GradientTape.stopRecording: Trying to stop recording a tape which is not recording');
  });

  test('stopRecording stops only this tape: an outer tape keeps recording', () =>
    noLeak(() => {
      const x = ef.constant(2);
      const outer = new ef.GradientTape();
      const inner = new ef.GradientTape();
      const y = outer.record(() => {
        outer.watch(x);
        return inner.record(() => {
          inner.watch(x);
          return inner.stopRecording(() => ef.multiply(x, x));
        });
      });
      expect(inner.gradient(y, x)).toBeNull();
      expect(val(outer.gradient(y, x))).toBe(4);
    }));

  test('testTapeReset: only ops after reset are differentiated (2)', () =>
    withVariables([1], (v) => {
      const t = new ef.GradientTape();
      const loss = t.record(() => {
        let l = ef.multiply(v, v);
        t.reset();
        l = ef.add(l, ef.multiply(v, v));
        return l;
      });
      expect(val(t.gradient(loss, v))).toBe(2);
    }));

  test('reset forgets watched tensors too', () =>
    noLeak(() => {
      const x = ef.constant(3);
      const [t, y] = taped(x, (tape) => {
        tape.reset();
        return ef.multiply(x, x);
      });
      expect(t.gradient(y, x)).toBeNull();
    }));
});

describe('variables', () => {
  test('testGradientTapeVariable / testTapeNoOpOnVariableIsIdentity: v*v gives 2, a read gives 1', () =>
    withVariables([1], (v) => {
      const g = new ef.GradientTape({ persistent: true });
      const [y, r] = g.record(() => [ef.multiply(v, v), v.value()]);
      expect(g.gradient(y, [v]).map(val)).toEqual([2]);
      expect(val(g.gradient(r, v))).toBe(1);
      g.dispose();
    }));

  test('testUnconnectedNone: a read variable unconnected to the target is null', () =>
    withVariables([1], (v) => {
      const g = new ef.GradientTape();
      const y = g.record(() => (v.value(), ef.constant(1)));
      expect(g.gradient(y, v)).toBeNull();
    }));

  test('testMultiValueConvertToTensor: mean(stack([x + 1, x + 1])) gives [1]', () => {
    const x = new ef.Variable([1]);
    noLeak(() => {
      const g = new ef.GradientTape();
      const y = g.record(() => {
        const a = ef.add(x, 1);
        return ef.reduceMean(ef.stack([a, a], 0));
      });
      expect(val(g.gradient(y, x))).toEqual([1]);
    });
    x.dispose();
  });

  test('testVariablesAndConstantsProduceTheSameGradients: [12, 4] both ways', () => {
    const grads = (a: ef.Tensor | ef.Variable, b: ef.Tensor | ef.Variable): unknown => {
      const t = new ef.GradientTape();
      const [y, z] = t.record(() => (t.watch([a, b]), [ef.pow(a, 3), ef.pow(b, 2)]));
      return t.gradient([y, z], [a, b]).map(val);
    };
    noLeak(() => expect(grads(ef.constant(2), ef.constant(2))).toEqual([12, 4]));
    withVariables([2, 2], (a, b) => expect(grads(a, b)).toEqual([12, 4]));
  });

  test('testAutomaticWatchedVariables: accessed trainable variables are watched; reset clears them', () =>
    withVariables([1], (v) => {
      const t = new ef.GradientTape();
      t.record(() => {
        expect(t.watchedVariables()).toEqual([]);
        let loss = ef.multiply(v, v);
        expect(t.watchedVariables()).toEqual([v]);
        t.reset();
        expect(t.watchedVariables()).toEqual([]);
        loss = ef.add(loss, ef.multiply(v, v));
        expect(t.watchedVariables()).toEqual([v]);
      });
    }));

  test('testExplicitWatchedVariables', () =>
    withVariables([1], (v) => {
      const t = new ef.GradientTape();
      t.record(() => {
        expect(t.watchedVariables()).toEqual([]);
        t.watch(v);
        expect(t.watchedVariables()).toEqual([v]);
        t.reset();
        expect(t.watchedVariables()).toEqual([]);
        t.watch(v);
        expect(t.watchedVariables()).toEqual([v]);
      });
    }));

  test('testSelectivelyWatchVariables: watchAccessedVariables false watches only what is asked', () =>
    withVariables([1, 1], (x1, x2) => {
      const tape = new ef.GradientTape({ watchAccessedVariables: false });
      const [y, z] = tape.record(() => {
        tape.watch(x2);
        return [ef.pow(x1, 2), ef.pow(x2, 3)];
      });
      expect(tape.watchedVariables()).toEqual([x2]);
      const [dy, dz] = tape.gradient([y, z], [x1, x2]);
      expect(dy).toBeNull();
      expect(val(dz)).toBe(3);
    }));

  test('non-trainable variables are not watched by access, but can be watched explicitly', () =>
    withVariables([2], (v) => {
      const t = new ef.GradientTape({ persistent: true });
      const y = t.record(() => ef.multiply(v, v));
      expect(t.watchedVariables()).toEqual([]);
      expect(t.gradient(y, v)).toBeNull();
      const z = t.record(() => (t.watch(v), ef.multiply(v, v)));
      expect(val(t.gradient(z, v))).toBe(4);
      t.dispose();
    }, { trainable: false }));

  test('watchedVariables() is in creation order, not access order', () =>
    withVariables([1, 2, 3], (a, b, c) => {
      const t = new ef.GradientTape();
      t.record(() => [c, a, b].forEach((v) => v.value()));
      expect(t.watchedVariables()).toEqual([a, b, c]);
    }));

  test('testWatchedVariablesAfterNonPersistentGradientCall and ...RespectReset', () => {
    withVariables([1], (x) => {
      const tape = new ef.GradientTape();
      tape.record(() => tape.watch(x));
      tape.gradient(x, x);
      expect(tape.watchedVariables()).toEqual([x]);
    });
    withVariables([1, 2], (x, z) => {
      const tape = new ef.GradientTape();
      tape.record(() => {
        tape.watch(x);
        expect(tape.watchedVariables()).toEqual([x]);
        tape.reset();
        tape.watch(z);
        expect(tape.watchedVariables()).toEqual([z]);
      });
      expect(val(tape.gradient(z, z))).toBe(1);
      expect(tape.watchedVariables()).toEqual([z]);
    });
  });

  test('testCustomGradient-style training loop: losses 4, 3, 2, 1, 0 with gradients of watchedVariables()', () =>
    withVariables([2], (x) => {
      const myMul = ef.customGradient((a, b) => ({ value: ef.multiply(a, b), grad: (dr) => [ef.multiply(dr, b), ef.multiply(dr, a)] }));
      const losses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const tape = new ef.GradientTape();
        const loss = tape.record(() => myMul(2, x.value()) as ef.Tensor);
        losses.push(loss.item() as number);
        const vars = tape.watchedVariables();
        tape.gradient(loss, vars).forEach((g, k) => vars[k].assignSub(ef.multiply(0.25, g as ef.Tensor)));
      }
      expect(losses).toEqual([4, 3, 2, 1, 0]);
    }));
});
