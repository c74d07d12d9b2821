import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheDirectory, resolveConfig } from '../core/config.ts';

describe('the cache folder', () => {
  it('is under $XDG_CACHE_HOME when that is an absolute path, else under ~/.cache, never inside the package', () => {
    expect(cacheDirectory({ XDG_CACHE_HOME: '/var/cache/ci' })).toMatch(
      /^\/var\/cache\/ci\/contract-conformance\/[0-9a-f]{12}$/,
    );
    expect(cacheDirectory({ XDG_CACHE_HOME: 'relative/cache' })).toMatch(
      new RegExp(`^${join(homedir(), '.cache', 'contract-conformance')}/[0-9a-f]{12}$`),
    );
    expect(cacheDirectory({})).toMatch(
      new RegExp(`^${join(homedir(), '.cache', 'contract-conformance')}/[0-9a-f]{12}$`),
    );
    expect(resolveConfig([], { XDG_CACHE_HOME: '/tmp/xdg' }, []).cacheDir).toMatch(
      /^\/tmp\/xdg\/contract-conformance\/[0-9a-f]{12}$/,
    );
  });
});
