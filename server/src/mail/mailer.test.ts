import { createDatabase, type Database } from '../db';
import { authMigrations } from '../auth/migrations';
import { createMailer } from './mailer';
import { mailText, startTestSmtp } from './testSmtp';

describe(createMailer.name, () => {
  let database: Database;
  const log = { info: jest.fn(), error: jest.fn() };

  beforeEach(async () => {
    database = createDatabase('sqlite::memory:');
    await authMigrations.find((m) => m.name === 'auth_004_outbox')!.up(database.db);
    log.info.mockClear();
    log.error.mockClear();
  });
  afterEach(() => database.destroy());

  it('keeps the message in the outbox and the log without SMTP_URL', async () => {
    const sut = createMailer({ db: database.db, smtpUrl: null, log });
    const result = await sut.send({ to: 'a@b.test', subject: 'Hi', text: 'code 123456' });
    expect(result.delivered).toBe(false);
    const rows = await database.db.selectFrom('outbox').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      to: 'a@b.test',
      subject: 'Hi',
      text: 'code 123456',
      sent_at: null,
      error: null,
    });
    expect(log.info).toHaveBeenCalledWith(
      expect.objectContaining({ mail: expect.objectContaining({ text: 'code 123456' }) }),
      expect.any(String),
    );
  });

  it('delivers through a real SMTP server and marks the outbox row sent', async () => {
    const smtp = await startTestSmtp();
    const sut = createMailer({ db: database.db, smtpUrl: smtp.url, from: 'Office <office@law.test>', log });
    try {
      const result = await sut.send({
        to: 'lawyer@law.test',
        subject: 'إعادة التعيين',
        text: 'الرمز 654321',
        html: '<p>654321</p>',
      });
      expect(result.delivered).toBe(true);
      const mail = await smtp.next();
      expect(mail.to).toEqual(['lawyer@law.test']);
      expect(mail.from).toBe('office@law.test');
      expect(mailText(mail.raw)).toContain('الرمز 654321');
      const row = await database.db.selectFrom('outbox').selectAll().executeTakeFirstOrThrow();
      expect(row.sent_at).not.toBeNull();
    } finally {
      sut.close();
      await smtp.close();
    }
  });

  it('records the error when the SMTP server cannot be reached', async () => {
    const sut = createMailer({ db: database.db, smtpUrl: 'smtp://127.0.0.1:1', log });
    const result = await sut.send({ to: 'a@b.test', subject: 'Hi', text: 'x' });
    expect(result.delivered).toBe(false);
    expect(result.error).toBeTruthy();
    const row = await database.db.selectFrom('outbox').selectAll().executeTakeFirstOrThrow();
    expect(row.error).toBeTruthy();
    expect(row.sent_at).toBeNull();
    expect(log.error).toHaveBeenCalled();
    sut.close();
  });
});
