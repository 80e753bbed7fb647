/**
 * Configuration is read from the environment in one place (src/config.ts); each refusal has a code
 * and a message that names the variable to set.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, MIN_SECRET_LENGTH } from '../../src/config.ts';

const SECRET = 'x'.repeat(MIN_SECRET_LENGTH);
const refusal = (env: NodeJS.ProcessEnv) => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('loadConfig accepted the environment');
};

describe('loadConfig', () => {
  it('production without AUTH_SECRET: NO_SECRET', () => {
    const { code, message } = refusal({ NODE_ENV: 'production' });
    expect(code).toBe('NO_SECRET');
    expect(message).toContain('AUTH_SECRET');
  });

  it(`production with an AUTH_SECRET shorter than ${MIN_SECRET_LENGTH} characters: WEAK_SECRET`, () => {
    const { code, message } = refusal({ NODE_ENV: 'production', AUTH_SECRET: SECRET.slice(1) });
    expect(code).toBe('WEAK_SECRET');
    expect(message).toContain(`at least ${MIN_SECRET_LENGTH} characters`);
    expect(message).toContain(`it has ${MIN_SECRET_LENGTH - 1}`);
    expect(loadConfig({ NODE_ENV: 'production', AUTH_SECRET: SECRET }).authSecret).toBe(SECRET);
  });

  it('development keeps a short secret someone chose (only production refuses it)', () => {
    expect(loadConfig({ NODE_ENV: 'development', AUTH_SECRET: 'short' }).authSecret).toBe('short');
  });

  it.each([
    ['PORT', { PORT: '70000' }, 'PORT must be an integer'],
    ['PORT', { PORT: 'http' }, 'PORT must be an integer'],
    ['PUBLIC_URL', { PUBLIC_URL: 'pipit.example' }, 'PUBLIC_URL must be an absolute URL'],
    ['RATE_LIMIT_WRITE', { RATE_LIMIT_WRITE: 'lots' }, 'RATE_LIMIT_WRITE must look like'],
    ['LOG_FORMAT', { LOG_FORMAT: 'xml' }, 'LOG_FORMAT must be "pretty" or "json"'],
    ['CARDS', { CARDS: 'maybe' }, 'CARDS must be "on" or "off"'],
  ])('a malformed %s: INVALID_CONFIG naming it', (_name, env, text) => {
    const { code, message } = refusal({ NODE_ENV: 'production', AUTH_SECRET: SECRET, ...env });
    expect(code).toBe('INVALID_CONFIG');
    expect(message).toContain(text);
  });

  it('federation: loopback peers (FEDERATION_ALLOW_LOOPBACK, for benchmarks) are refused in production', () => {
    const production: NodeJS.ProcessEnv = {
      NODE_ENV: 'production',
      AUTH_SECRET: SECRET,
      PUBLIC_URL: 'https://pipit.example',
    };
    expect(loadConfig(production).federation.allowLoopback).toBeUndefined();
    const { code, message } = refusal({ ...production, FEDERATION_ALLOW_LOOPBACK: 'true' });
    expect(code).toBe('INVALID_CONFIG');
    expect(message).toContain('FEDERATION_ALLOW_LOOPBACK=true is for benchmarks only');
    expect(
      loadConfig({ NODE_ENV: 'development', PUBLIC_URL: 'https://pipit.test', FEDERATION_ALLOW_LOOPBACK: 'true' })
        .federation.allowLoopback,
    ).toBe(true);
  });

  it('link cards: on unless CARDS=off; fetching this machine (CARDS_ALLOW_LOOPBACK) is refused in production', () => {
    const production: NodeJS.ProcessEnv = { NODE_ENV: 'production', AUTH_SECRET: SECRET };
    expect(loadConfig(production).cards).toMatchObject({ enabled: true, allowLoopback: false });
    expect(loadConfig({ ...production, CARDS: 'off' }).cards.enabled).toBe(false);
    const { code, message } = refusal({ ...production, CARDS_ALLOW_LOOPBACK: 'true' });
    expect(code).toBe('INVALID_CONFIG');
    expect(message).toContain('CARDS_ALLOW_LOOPBACK=true is for tests only');
    expect(
      loadConfig({ NODE_ENV: 'test', AUTH_SECRET: SECRET, CARDS_ALLOW_LOOPBACK: 'true' }).cards.allowLoopback,
    ).toBe(true);
  });

  it('logs are readable lines in development and JSON in production, unless LOG_FORMAT says otherwise', () => {
    const dataDir = path.join('/tmp', `pipit-config-test-${process.pid}`);
    expect(loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir, AUTH_SECRET: 's' }).logFormat).toBe('pretty');
    expect(loadConfig({ NODE_ENV: 'production', AUTH_SECRET: SECRET }).logFormat).toBe('json');
    expect(loadConfig({ NODE_ENV: 'production', AUTH_SECRET: SECRET, LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
  });

  it('an https PUBLIC_URL switches to secure cookies', () => {
    const config = loadConfig({ NODE_ENV: 'production', AUTH_SECRET: SECRET, PUBLIC_URL: 'https://pipit.example/' });
    expect(config.publicUrl).toBe('https://pipit.example');
    expect(config.secureCookies).toBe(true);
  });
});
