// The GraphDef JSON format's node, function and graph types (tfjs model.json `modelTopology`, protobuf JSON): what
// ConcreteFunction.toGraphDef returns and @eagerflow/saving writes and reads.
import type { Attrs } from '../backend/backend';
import type { TfDType } from './graphdef_spec';

export interface NodeDef {
  name: string;
  op: string;
  input?: string[];
  attr?: Attrs;
}

export interface ArgDef {
  name: string;
  type: TfDType;
}

export interface FunctionDef {
  signature: { name: string; inputArg: ArgDef[]; outputArg: ArgDef[]; isStateful?: boolean };
  nodeDef: NodeDef[];
  ret: Record<string, string>;
}

/** What `modelTopology` holds: a TensorFlow GraphDef in protobuf JSON. */
export interface GraphDef {
  node: NodeDef[];
  library?: { function?: FunctionDef[] };
  versions: { producer: number; minConsumer?: number };
}
