// ef.errors: the OpError hierarchy as a namespace.
export {
  OpError,
  InvalidArgumentError,
  UnknownError,
  OutOfRangeError,
  UnimplementedError,
  FailedPreconditionError,
  NotFoundError,
  InternalError,
  ResourceExhaustedError,
  DataLossError,
} from '@eagerflow/core';
