// ESM entry of @wirecontract/node: the CommonJS module (which loads the native addon)
// re-exported by name.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const cjs = require('./index.js');

export const { graphmind, graphorin, VERSION, CONTRACT_ID } = cjs;
export const {
  PROTOCOL_VERSION,
  WILDCARD_RUN_ID,
  MESSAGE_TYPES,
  EVENT_TYPES,
  CONTROL_TYPES,
  HANDSHAKE_TYPES,
  KNOWN_CAPABILITIES,
  MAX_FRAME_BYTES,
  MAX_DEPTH,
  DEFAULT_MAX_PAYLOAD_BYTES,
  parseEnvelopeJson,
  parseEnvelope,
  createEnvelope,
  serializeEnvelope,
  exportJsonSchema,
  exportJsonSchemaString,
  matchersEqual,
  matcherMatches,
  shouldPause,
  pauseReason,
  negotiateHello,
  helloAck,
  shrinkPayload,
  shrinkPayloadJson,
  BuildError,
} = cjs;
export default cjs;
