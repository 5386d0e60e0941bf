// ef.utils: Keras-style utilities (tf.keras.utils): the progress bar.
/**
 * Utilities from tf.keras.utils: `Progbar`.
 * @module
 */
export { Progbar } from './progbar';
export type { ProgbarOptions, ProgbarStream, ProgbarValue } from './progbar';
