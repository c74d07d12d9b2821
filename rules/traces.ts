import type { Trace } from '../spec/traceability.ts';

// The traces that many statements share, by what they say, so that each table reads as what it maps.

/** A pipe field sent on create and carried back in its responses. */
export const PIPE_FIELD_SENT_ON_CREATE: Trace = Object.freeze({
  rules: ['response.schema', 'pipes.reflects-request', 'request.valid-accepted'],
  tolerance: 'reflected-fields',
});

/** A response field, type-checked by the schema of openapi/. */
export const RESPONSE_FIELD: Trace = Object.freeze({ rules: ['response.schema'] });

/** A pipe field sent on create and on update, and carried back. */
export const PIPE_FIELD_UPDATABLE: Trace = Object.freeze({
  rules: ['response.schema', 'pipes.reflects-request', 'pipes.update-applies', 'request.valid-accepted'],
  tolerance: 'reflected-fields',
});

/** A pipe settings key: in every settings read, and carried back as sent. */
export const PIPE_SETTING: Trace = Object.freeze({
  rules: ['pipes.settings-keys', 'response.schema', 'pipes.reflects-request', 'pipes.update-applies'],
});

/** Something the documents say is not shown: nothing is judged of it. */
export const NOT_SHOWN: Trace = Object.freeze({ tolerance: 'not-shown' });

/** A timestamp field: any RFC 3339 offset and fraction. */
export const TIMESTAMP_FIELD: Trace = Object.freeze({ rules: ['response.schema'], tolerance: 'timestamps' });

/** A response field that exists only under a condition: type-checked when present. */
export const CONDITIONAL_FIELD: Trace = Object.freeze({ rules: ['response.schema'], tolerance: 'conditional-fields' });

/** An alert field that the update sends and the answers carry back. */
export const ALERT_UPDATE_FIELD: Trace = Object.freeze({
  rules: ['response.schema', 'alerts.update-applies', 'request.valid-accepted'],
});

/** A state whose values and transitions are not shown. */
export const FREE_STATE: Trace = Object.freeze({ tolerance: 'free-state-strings' });

/** A sentence about the document, not the API. */
export const DOCUMENT_SCOPE: Trace = Object.freeze({
  notTestable: 'it says what the document covers, not what the API does',
});

/** A secret sent in requests only, never returned. */
export const REQUEST_SECRET: Trace = Object.freeze({ rules: ['secrets.absent', 'request.valid-accepted'] });

/** The envelope of management responses. */
export const ENVELOPE: Trace = Object.freeze({ rules: ['envelope.shape'] });

/** A state field: a free string, type-checked. */
export const STATE_FIELD: Trace = Object.freeze({ rules: ['response.schema'], tolerance: 'free-state-strings' });

/** A pipe object carried back as sent. */
export const PIPE_FIELD_REFLECTED: Trace = Object.freeze({
  rules: ['response.schema', 'pipes.reflects-request'],
  tolerance: 'reflected-fields',
});

/** Values shown only as samples: probes send only their kind. */
export const SAMPLE_VALUES: Trace = Object.freeze({ tolerance: 'sample-values' });

/** A field of the update answer that the list omits. */
export const ALERT_UPDATE_ONLY_FIELD: Trace = Object.freeze({
  rules: ['response.schema', 'alerts.update-fields', 'alerts.list-omits'],
});
