// ef.savedModel: TF 2.x SavedModels written and read (API.md section 16).
/**
 * TensorFlow SavedModels both ways: `save(obj, dir, {signatures})` writes what TF 2.21's
 * `tf.saved_model.load`, `saved_model_cli` and TF Serving read.
 * @module
 */
export { saveSavedModel as save } from '@eagerflow/saving';
export type { SavedModelSaveOptions as SaveOptions } from '@eagerflow/saving';
