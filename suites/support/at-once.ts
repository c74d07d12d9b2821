/** Why no writes are sent at once in a run that allows one request at a time: their rules are then not judged. */
export const ONE_AT_A_TIME = 'the run allows one request at a time (--concurrency 1): no writes can be sent at once';
