// Names for the generated OpenAPI types (schema.d.ts); nothing here is written by hand.
import type { components } from './schema';

type Schemas = components['schemas'];

export type Trace = Schemas['Trace'];
export type TensorNode = Schemas['TensorNode'];
export type FunctionNode = Schemas['FunctionNode'];
export type GraphNode = TensorNode | FunctionNode;
export type Edge = Schemas['Edge'];
export type TensorData = Schemas['TensorData'];
export type Stats = Schemas['Stats'];
export type Span = Schemas['Span'];
export type ErrorInfo = Schemas['ErrorInfo'];
export type Pass = Schemas['Pass'];
export type SavedTensor = Schemas['SavedTensor'];
export type Series = Schemas['Series'];
export type ForwardEvent = Schemas['ForwardEvent'];
export type PrintEvent = Schemas['PrintEvent'];
export type WarningEvent = Schemas['WarningEvent'];
export type BackwardFunctionEvent = Schemas['BackwardFunctionEvent'];
export type BackwardTensorEvent = Schemas['BackwardTensorEvent'];
export type UpdateEvent = Schemas['UpdateEvent'];
export type LineEvent = Schemas['LineEvent'];
export type FreedEvent = Schemas['FreedEvent'];
export type BackwardErrorEvent = Schemas['BackwardErrorEvent'];
export type TimelineEvent = Trace['timeline'][number];
export type ReferenceEntry = Schemas['ReferenceEntry'];
export type Reference = Schemas['Reference'];
/** A number as JSON carries it: non-finite floats arrive as "nan", "inf", "-inf". */
export type JsonNumber = number | boolean | string;

export type Example = Schemas['ExampleOut'];
export type Health = Schemas['Health'];
export type TraceRequest = Schemas['TraceRequest'];
export type GradCheck = Schemas['GradCheck'];
export type GradCheckRequest = Schemas['GradCheckRequest'];
export type LeafCheck = Schemas['LeafCheck'];

export type RoomView = Schemas['View'];
export type RoomPoll = Schemas['Poll'];
export type RoomState = Schemas['RoomState'];
export type RoomSnapshot = Schemas['RoomSnapshot'];
export type RoomCreated = Schemas['RoomCreated'];
export type RoomDistribution = Schemas['Distribution'];
export type RoomEvent = Schemas['StateEvent'] | Schemas['FollowersEvent'] | Schemas['AnswersEvent'] | Schemas['ClosedEvent'];
