/** The rules that only model-based sequences judge, which no probe group sends yet: reported not judged, with that reason. */
export const UNSEQUENCED: readonly string[] = Object.freeze(['pipes.state-consistent', 'alerts.update-isolated']);
