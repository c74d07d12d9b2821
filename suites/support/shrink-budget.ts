/** The shrink requests the whole run has sent: one counter, shared by every suite of the run. */
export interface ShrinkBudget {
  spent: number;
}

/** Creates the run's shrink budget, with nothing spent. */
export function createShrinkBudget(): ShrinkBudget {
  return { spent: 0 };
}
