import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheDirectory, resolveConfig } from '../core/config.ts';

describe('the cache folder', () => {
  it('is under $XDG_CACHE_HOME when that is an absolute path, else under ~/.cache, never inside the package', () => {
    expect(cacheDirectory({ XDG_CACHE_HOME: '/var/cache/ci' })).toBe('/var/cache/ci/contract-conformance');
    expect(cacheDirectory({ XDG_CACHE_HOME: 'relative/cache' })).toBe(join(homedir(), '.cache', 'contract-conformance'));
    expect(cacheDirectory({})).toBe(join(homedir(), '.cache', 'contract-conformance'));
    expect(resolveConfig([], { XDG_CACHE_HOME: '/tmp/xdg' }, []).cacheDir).toBe('/tmp/xdg/contract-conformance');
  });
});
