// fast-png is ESM-only with an `exports` map and no `types` field, which moduleResolution "node" cannot follow:
// the package's own declarations, under its import name.
declare module 'fast-png' {
  export * from 'fast-png/lib/index';
}
