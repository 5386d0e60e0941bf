// ef.savedModel: TF 2.x SavedModels written and read (API.md section 16).
/**
 * TensorFlow SavedModels both ways: `save(obj, dir, {signatures})` writes what TF 2.21's
 * `tf.saved_model.load`, `saved_model_cli` and TF Serving read; `load(dir)` reads TF's (and TF1-style ones).
 * @module
 */
export { saveSavedModel as save, loadSavedModel as load } from '@eagerflow/saving';
export type { SavedModelSaveOptions as SaveOptions, LoadedSavedModel, LoadedSignature } from '@eagerflow/saving';
