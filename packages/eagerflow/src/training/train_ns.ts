// ef.train: checkpoints (./checkpoint) and TF's tf.train.Example protos (../io/example).
export * from './checkpoint';
export { Example, Features, Feature, FeatureList, FeatureLists, SequenceExample } from '../io/example';
export type { ExampleInit, FeaturesInit, FeatureInit, FeatureListInit, FeatureListsInit, SequenceExampleInit } from '../io/example';
