// The training kit's namespaces: ef.optimizers (with schedules), ef.initializers, ef.losses and ef.train.
export * as optimizers from './optimizers_ns';
export * as initializers from './initializers';
export * as losses from './losses';
export * as train from './train_ns';
