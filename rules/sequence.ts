/** The part of a rule that only model-based sequences give evidence for. */
export const SEQUENCE_PART = 'model-based sequences';

/** Why a sequence rule is not judged while no probe group sends sequences. */
export const NO_SEQUENCES = 'no probe group sends model-based sequences yet, so nothing judged this rule';
