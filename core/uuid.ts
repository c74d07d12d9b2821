/** A uuid of any version, in either case (RULES.md: uuids compare case-insensitively). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when `text` is written as a uuid. */
export const isUuid = (text: string): boolean => UUID.test(text);
