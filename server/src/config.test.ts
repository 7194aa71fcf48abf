import path from 'node:path';
import { loadConfig } from './config';

describe('loadConfig', () => {
  it('has defaults for everything', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: `sqlite:${path.resolve('./data/mizan.db')}`,
      dataDir: path.resolve('./data'),
      redisUrl: null,
      smtpUrl: null,
      mailMaxAttachmentBytes: 20 * 1024 * 1024,
      adminEmail: null,
      adminPassword: null,
      remotes: null,
      logLevel: 'info',
      trustProxy: 'loopback',
      readyTimeoutMs: 2000,
    });
    expect(config.staticDir).toBe(path.resolve(__dirname, '..', '..'));
  });

  it('reads the mail attachment limit in megabytes and refuses a bad one', () => {
    expect(loadConfig({ MIZAN_MAIL_MAX_ATTACHMENT_MB: '10' }).mailMaxAttachmentBytes).toBe(10 * 1024 * 1024);
    expect(loadConfig({ MIZAN_MAIL_MAX_ATTACHMENT_MB: '0.5' }).mailMaxAttachmentBytes).toBe(512 * 1024);
    expect(() => loadConfig({ MIZAN_MAIL_MAX_ATTACHMENT_MB: '0' })).toThrow(/MIZAN_MAIL_MAX_ATTACHMENT_MB/);
    expect(() => loadConfig({ MIZAN_MAIL_MAX_ATTACHMENT_MB: 'lots' })).toThrow(
      /MIZAN_MAIL_MAX_ATTACHMENT_MB/,
    );
  });

  it('keeps the default SQLite file inside DATA_DIR', () => {
    expect(loadConfig({ DATA_DIR: '/srv/mizan' }).databaseUrl).toBe('sqlite:/srv/mizan/mizan.db');
  });

  it('reads every variable and refuses invalid ones with a clear message', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://u@h/db',
      DATA_DIR: '/srv/mizan',
      REDIS_URL: 'redis://r:6379',
      MIZAN_REMOTES: '{"settings":"https://cdn/settings/mf-manifest.json"}',
      MIZAN_ADMIN_EMAIL: 'a@b.c',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      databaseUrl: 'postgres://u@h/db',
      dataDir: '/srv/mizan',
      redisUrl: 'redis://r:6379',
      remotes: { settings: 'https://cdn/settings/mf-manifest.json' },
      adminEmail: 'a@b.c',
    });
    expect(loadConfig({ MIZAN_TRUST_PROXY: ' 10.0.0.5, loopback ' }).trustProxy).toBe('10.0.0.5, loopback');
    expect(loadConfig({ MIZAN_TRUST_PROXY: 'none' }).trustProxy).toBe(false);
    expect(loadConfig({ MIZAN_READY_TIMEOUT_MS: '5000' }).readyTimeoutMs).toBe(5000);
    expect(() => loadConfig({ MIZAN_READY_TIMEOUT_MS: '50' })).toThrow(/MIZAN_READY_TIMEOUT_MS/);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ MIZAN_REMOTES: '[1]' })).toThrow(/MIZAN_REMOTES/);
    expect(() => loadConfig({ MIZAN_REMOTES: '{"a":1}' })).toThrow(/"a"/);
  });
});
