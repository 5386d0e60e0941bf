// ef.train: checkpoints (./checkpoint) and TF's tf.train.Example protos (../io/example).
/**
 * TF's `tf.train`: `Checkpoint`, `CheckpointManager` and `latestCheckpoint` in TF's checkpoint format, and the
 * `Example` / `SequenceExample` protos (`Features`, `Feature`, `FeatureList`, `FeatureLists`) of TFRecord datasets.
 * @module
 */
export * from './checkpoint';
export { Example, Features, Feature, FeatureList, FeatureLists, SequenceExample } from '../io/example';
export type { ExampleInit, FeaturesInit, FeatureInit, FeatureListInit, FeatureListsInit, SequenceExampleInit } from '../io/example';
