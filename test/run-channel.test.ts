import { BroadcastChannel } from 'node:worker_threads';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../settings/config.ts';
import { listenToRun, openRunChannel, runLink } from '../run/run-channel.ts';
import type { CreatedResource } from '../run/run-report-types.ts';
import { RULE_IDS } from '../rules/index.ts';

const resource = (id: string): CreatedResource => ({ kind: 'created', id, operation: 'createPipe', note: 'a pipe' });

/** A run's link, the command's listener on it (the ids it heard), and the messages on the channel, counted. */
function link(reportDir: string) {
  const run = runLink({ config: resolveConfig(['--report-dir', reportDir], {}, RULE_IDS) });
  const listener = listenToRun(run);
  const heard: string[] = [];
  listener.onCreated((_, created) => heard.push(created.id));
  const raw = new BroadcastChannel(run.channel);
  const messages = { count: 0 };
  raw.onmessage = () => {
    messages.count += 1;
  };
  return {
    run,
    listener,
    heard,
    messages,
    close: () => {
      listener.close();
      raw.close();
    },
  };
}

describe("the sending thread's created resources, told to the command", () => {
  it('go several to a message, and all of them at once when the run is stopped or the link closed', async () => {
    const { run, listener, heard, messages, close } = link('created-batch');
    const reporter = openRunChannel(run);
    try {
      for (const id of ['a', 'b', 'c']) {
        reporter.created('pipes', resource(id));
        await sleep(1);
      }
      await sleep(120);
      expect(heard).toEqual(['a', 'b', 'c']);
      expect(messages.count).toBe(1);
      // Announced, then the run stopped: sent at the stop, not at the batch's end; after it, each at once.
      reporter.created('pipes', resource('d'));
      listener.stop();
      await sleep(10);
      expect(heard).toEqual(['a', 'b', 'c', 'd']);
      reporter.created('pipes', resource('e'));
      await sleep(10);
      expect(heard).toEqual(['a', 'b', 'c', 'd', 'e']);
    } finally {
      reporter.close();
      close();
    }
  });

  it('go when the link closes, though the batch has not ended', async () => {
    const { run, heard, close } = link('created-close');
    const reporter = openRunChannel(run);
    try {
      reporter.created('keys', resource('k'));
      reporter.close();
      await sleep(10);
      expect(heard).toEqual(['k']);
    } finally {
      close();
    }
  });

  it('answer the stop, so that a hard stop reads them once heard: no wait before, every one after', async () => {
    const { run, listener, heard, close } = link('created-stop-heard');
    const reporter = openRunChannel(run);
    try {
      reporter.created('pipes', resource('p'));
      listener.stop();
      // Read in the turn of the stop (a second signal handled with the first), nothing has arrived yet.
      expect(heard).toEqual([]);
      expect(await listener.heardStop(1_000)).toBe(true);
      expect(heard).toEqual(['p']);
      // Heard once, it stays heard.
      expect(await listener.heardStop(0)).toBe(true);
    } finally {
      reporter.close();
      close();
    }
  });

  it('answer the stop even when nothing was created; with no sending thread, the wait ends at its limit', async () => {
    const quiet = link('created-stop-none');
    const reporter = openRunChannel(quiet.run);
    const alone = link('created-stop-alone');
    try {
      quiet.listener.stop();
      expect(await quiet.listener.heardStop(1_000)).toBe(true);
      expect(quiet.heard).toEqual([]);
      alone.listener.stop();
      const before = Date.now();
      expect(await alone.listener.heardStop(50)).toBe(false);
      expect(Date.now() - before).toBeGreaterThanOrEqual(45);
    } finally {
      reporter.close();
      quiet.close();
      alone.close();
    }
  });

  it('say nothing once closed, though the stop comes after (the preparation closes its link first)', async () => {
    const { run, listener, messages, close } = link('created-closed');
    const reporter = openRunChannel(run);
    try {
      reporter.close();
      listener.stop();
      await sleep(20);
      expect(messages.count).toBe(0);
      expect(await listener.heardStop(20)).toBe(false);
    } finally {
      close();
    }
  });

  it('need no answer to a stop once the session ended, its last word carrying every one', async () => {
    const { run, listener, heard, close } = link('created-ended');
    const reporter = openRunChannel(run);
    try {
      reporter.created('pipes', resource('last'));
      reporter.end();
      await sleep(10);
      expect(heard).toEqual(['last']);
      listener.stop();
      const before = Date.now();
      expect(await listener.heardStop(1_000)).toBe(true);
      expect(Date.now() - before).toBeLessThan(100);
    } finally {
      close();
    }
  });
});
