// Name scopes (TF 2's eager name_scope): the prefix `a/b/` that Variables created inside a scope take in their names.
// ef.Module enters its own scope (`m.withNameScope(fn)`, `Module.withNameScope(method)`); as in TF 2 eager mode the
// scopes are not made unique (two modules named 'dense' share the scope 'dense/').

let current = '';

/** The name scope in effect ('' outside every scope, else ending with '/'). */
export function currentNameScope(): string {
  return current;
}

/**
 * Runs `fn` with `scope` (absolute, ending with '/', or '' for none) as the current name scope, restoring the
 * previous one when it returns or throws. Only its synchronous part is inside the scope: an async `fn` would
 * otherwise lend the scope to whatever runs while it awaits.
 */
export function inNameScope<T>(scope: string, fn: () => T): T {
  const saved = current;
  current = scope;
  try {
    return fn();
  } finally {
    current = saved;
  }
}
