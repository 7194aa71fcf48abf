import { API_BASE, type CustomerMessage, MESSAGE_ROUTES } from '@mizan/contracts';
import { mailText, startTestSmtp } from '../mail/testSmtp';
import {
  configureProviders,
  createRow,
  deleteMessageTemplates,
  entityUrl,
  nextSeq,
  rewriteMessageTemplate,
} from '../test/fixtures';
import { createTestApp, splitDialects, type Session, type TestApp } from '../test/harness';
import { startHttpStandIn } from '../test/httpStandIn';
import { renderText } from './render';

const customerMessages = (id: number) => API_BASE + MESSAGE_ROUTES.customer.path.replace(':id', String(id));
const lawsuitMessages = (id: number) => API_BASE + MESSAGE_ROUTES.lawsuit.path.replace(':id', String(id));
const PHONE = '+201001234567';
/** The same number as a person types it on an Arabic keyboard. */
const ARABIC_PHONE = '+٢٠ ١٠٠ ١٢٣ ٤٥٦٧';

describe.each(splitDialects())('messages to clients on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  let whatsapp: Awaited<ReturnType<typeof startHttpStandIn>>;
  let gateway: Awaited<ReturnType<typeof startHttpStandIn>>;
  const clock = { now: new Date('2026-02-01T08:00:00Z') };
  const later = (ms: number) => (clock.now = new Date(clock.now.getTime() + ms));
  let sent = 0;

  const h = (lang = 'en') => ({ ...admin.headers, 'accept-language': lang });
  const messagesOf = async (id: number): Promise<CustomerMessage[]> => {
    const res = await t.app.inject({ method: 'GET', url: customerMessages(id), headers: h() });
    expect(res.statusCode).toBe(200);
    return res.json().data.items as CustomerMessage[];
  };
  const providers = (changes: { sms?: object; whatsapp?: object } = {}) =>
    configureProviders(t.app, h(), { sms: gateway, whatsapp }, changes);
  const audits = async (id: number) =>
    (
      await t.app.db
        .selectFrom('audit_log')
        .select('action')
        .where('entity', '=', 'clientMessages')
        .where('entity_id', '=', id)
        .orderBy('id')
        .execute()
    ).map((r) => r.action);

  beforeAll(async () => {
    smtp = await startTestSmtp();
    whatsapp = await startHttpStandIn(() => ({
      status: 200,
      body: { messages: [{ id: `wamid.${++sent}` }] },
    }));
    gateway = await startHttpStandIn(() => ({ status: 200, body: { id: `sms-${++sent}` } }));
    t = await createTestApp({ dialect, env: { SMTP_URL: smtp.url }, app: { clock: () => clock.now } });
    admin = await t.login();
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([smtp?.close(), whatsapp?.close(), gateway?.close()]);
  });

  it('keeps provider secrets: never answered in clear, kept when left out of a change', async () => {
    const saved = await providers({ sms: { authHeader: 'Bearer sms-key' }, whatsapp: { token: 'wa-token' } });
    expect([saved.statusCode, saved.json().errors]).toEqual([200, undefined]);
    const res = await t.app.inject({
      method: 'GET',
      url: API_BASE + MESSAGE_ROUTES.providers.path,
      headers: h(),
    });
    expect(res.json().data).toMatchObject({
      sms: { url: `${gateway.url}/send`, authHeaderSet: true },
      whatsapp: { phoneNumberId: '1098765', tokenSet: true, appSecretSet: false },
      emailConfigured: true,
    });
    expect(res.body).not.toContain('wa-token');
    expect(res.body).not.toContain('sms-key');
    // A change without the secrets keeps them; a bad URL is 422 and changes nothing.
    expect((await providers()).json().data.whatsapp.tokenSet).toBe(true);
    const bad = await providers({ sms: { url: 'not a url' } });
    expect([bad.statusCode, Object.keys(bad.json().errors)]).toEqual([422, ['sms']]);
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select(['after'])
      .where('entity', '=', 'messageProviders')
      .execute();
    expect(audit).toHaveLength(2);
    expect(JSON.stringify(audit)).not.toContain('wa-token');
  });

  it('a postponement sends one WhatsApp and one email to a client who agreed, nothing to one who did not, retrying a provider that is down', async () => {
    // The office rewrites its default Arabic text, and does not tell of new hearings.
    const template = await rewriteMessageTemplate(t.app, h(), 'hearingPostponed', 'ar', {
      subject: 'تأجيل جلستك',
      body: 'السيد {client.name}: تأجلت الجلسة إلى {event.newDate} بسبب {event.reason}. {office.name}',
      whatsappTemplate: 'hearing_postponed',
    });
    expect(template.whatsappTemplate).toBe('hearing_postponed');
    await deleteMessageTemplates(t.app, h(), 'hearingScheduled');
    const unknown = await t.app.inject({
      method: 'POST',
      url: entityUrl('messageTemplates'),
      headers: h(),
      payload: {
        name: 'Postponed',
        event: 'hearingPostponed',
        language: 'en',
        body: 'On {session.nothingHere}',
      },
    });
    expect([unknown.statusCode, unknown.json().errors.body[0]]).toEqual([
      422,
      expect.stringContaining('session.nothingHere'),
    ]);

    const agreed = await createRow(t.app, h(), 'customers', {
      name: 'سعيد علي',
      email: 'said@client.test',
      whatsapp: ARABIC_PHONE,
      language: 'ar',
      emailOptIn: '2026-01-05',
      whatsappOptIn: '2026-01-05',
      smsOptIn: null,
    });
    const declined = await createRow(t.app, h(), 'customers', {
      email: 'no@client.test',
      whatsapp: PHONE,
      mobile: PHONE,
      emailOptIn: null,
      smsOptIn: null,
      whatsappOptIn: null,
    });
    const lawsuit = await createRow(t.app, h(), 'lawsuits', {
      customerIds: [agreed.id, declined.id],
      filingDate: '2026-01-10',
    });
    // A hearing that is not a judgment (which would tell the clients of its own).
    const hearing = await createRow(t.app, h(), 'sessions', {
      lawsuitId: lawsuit.id,
      date: '2026-03-01',
      judgment: false,
    });
    whatsapp.failNext(2);
    const postponed = await t.app.inject({
      method: 'PATCH',
      url: `${entityUrl('sessions')}/${hearing.id}/postpone`,
      headers: h(),
      payload: { updatedAt: hearing.updatedAt, decision: 'للاطلاع والمستندات', nextDate: '2026-04-12' },
    });
    expect([postponed.statusCode, postponed.json().errors]).toEqual([200, undefined]);

    await t.app.jobs.drain();
    const first = await messagesOf(agreed.id);
    expect(first.map((m) => [m.channel, m.state, m.to])).toEqual([
      ['whatsapp', 'queued', PHONE],
      ['email', 'sent', 'said@client.test'],
    ]);
    // The provider is down: the message waits for its retry, and the staff see why.
    expect(first[0]!.reason).toContain('HTTP 503');
    expect(first[0]!.body).toContain('للاطلاع والمستندات');
    // The office's own text, not the default it rewrote.
    expect(first[0]!.body).toMatch(/^السيد سعيد علي: تأجلت الجلسة إلى /);
    expect(await messagesOf(declined.id)).toEqual([]);

    const mail = await smtp.next();
    expect(mail.to).toEqual(['said@client.test']);
    expect(mailText(mail.raw)).toContain('سعيد علي');

    later(31_000);
    await t.app.jobs.drain();
    expect((await messagesOf(agreed.id))[0]).toMatchObject({ state: 'queued', attempts: 2 });
    later(61_000);
    await t.app.jobs.drain();
    const done = (await messagesOf(agreed.id))[0]!;
    expect(done).toMatchObject({
      state: 'sent',
      reason: null,
      attempts: 3,
      providerId: expect.stringMatching(/^wamid\./),
    });
    expect(whatsapp.requests).toHaveLength(3);
    const request = whatsapp.requests[2]!;
    expect(request.url).toBe('/v21.0/1098765/messages');
    expect(request.headers.authorization).toBe('Bearer wa-token');
    expect(request.json).toMatchObject({
      messaging_product: 'whatsapp',
      to: PHONE.slice(1),
      type: 'template',
      template: {
        name: 'hearing_postponed',
        language: { code: 'ar' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: done.body }] }],
      },
    });
    // Sent once: later polls send nothing again.
    later(3_600_000);
    await t.app.jobs.drain();
    expect(whatsapp.requests).toHaveLength(3);
    expect((await messagesOf(agreed.id)).length).toBe(2);

    // WhatsApp reports the delivery on its webhook.
    const hook = await t.app.inject({
      method: 'POST',
      url: API_BASE + MESSAGE_ROUTES.whatsappVerify.path,
      payload: {
        entry: [{ changes: [{ value: { statuses: [{ id: done.providerId, status: 'delivered' }] } }] }],
      },
    });
    expect([hook.statusCode, hook.json().data]).toEqual([200, { updated: 1 }]);
    expect((await messagesOf(agreed.id))[0]!.state).toBe('delivered');
    expect(await audits(done.id)).toEqual(['queue', 'send', 'deliver']);

    const tab = await t.app.inject({ method: 'GET', url: lawsuitMessages(lawsuit.id), headers: h() });
    expect(tab.json().data.items.map((m: CustomerMessage) => m.customerId)).toEqual([agreed.id, agreed.id]);
  });

  it('a section shows its words only with its field; one left open, closed out of order or naming a field the event lacks is refused', async () => {
    const data = { session: { date: '2026-03-01', court: 'محكمة الجيزة', decision: '' } };
    expect(
      renderText(
        'On {session.date}{#session.court} before {session.court}{#session.decision}: {session.decision}{/session.decision}{/session.court}.',
        data,
      ),
    ).toBe('On 2026-03-01 before محكمة الجيزة.');
    expect(renderText('On {session.date}{#session.court} before {session.court}{/session.court}.', {})).toBe(
      'On .',
    );

    const save = (body: string, lang = 'en') =>
      t.app.inject({
        method: 'POST',
        url: entityUrl('messageTemplates'),
        headers: h(lang),
        payload: { name: `Sections ${nextSeq()}`, event: 'hearingScheduled', language: 'en', body },
      });
    for (const [body, error] of [
      [
        'On {session.date}{#session.lawsuit.court} before {session.lawsuit.court}.',
        '{#session.lawsuit.court}',
      ],
      [
        'On {session.date} before {session.lawsuit.court}{/session.lawsuit.court}.',
        '{#session.lawsuit.court}',
      ],
      [
        '{#session.decision}{#session.lawsuit.court}{/session.decision}{/session.lawsuit.court}',
        '{#session.decision}',
      ],
      ['{#session.nothingHere}On {session.date}{/session.nothingHere}', 'session.nothingHere'],
    ]) {
      const res = await save(body!);
      expect([res.statusCode, res.json().errors?.body?.[0]]).toEqual([422, expect.stringContaining(error!)]);
    }
    const arabic = await save('{#session.lawsuit.court}أمام {session.lawsuit.court}', 'ar');
    expect(arabic.json().errors.body[0]).toContain('يجب إغلاق القسم');
    const nested = await save(
      'On {session.date}{#session.lawsuit.court} before {session.lawsuit.court}{#session.decision}: {session.decision}{/session.decision}{/session.lawsuit.court}.',
    );
    expect([nested.statusCode, nested.json().errors]).toEqual([201, undefined]);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `${entityUrl('messageTemplates')}/${nested.json().data.id}`,
      headers: { ...h(), 'if-unmodified-since': String(nested.json().data.updatedAt) },
    });
    expect(removed.statusCode).toBeLessThan(300);
  });

  it('sends a one-off SMS from the communications tab; refuses a channel without consent or a phone not in E.164', async () => {
    const client = await createRow(t.app, h(), 'customers', {
      mobile: ARABIC_PHONE,
      smsOptIn: '2026-01-20',
      emailOptIn: null,
      whatsappOptIn: null,
    });
    const send = (id: number, payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: customerMessages(id), headers: h(), payload });
    const noConsent = await send(client.id, { channel: 'whatsapp', body: 'مرحبا' });
    expect([noConsent.statusCode, Object.keys(noConsent.json().errors)]).toEqual([422, ['channel']]);
    const local = await createRow(t.app, h(), 'customers', { mobile: '٠١٠٠١٢٣٤٥٦٧', smsOptIn: '2026-01-20' });
    const badPhone = await send(local.id, { channel: 'sms', body: 'مرحبا' });
    expect([badPhone.statusCode, badPhone.json().errors.channel[0]]).toEqual([
      422,
      expect.stringContaining('international'),
    ]);
    expect(await messagesOf(local.id)).toEqual([]);

    const res = await send(client.id, { channel: 'sms', body: 'موعدكم غدا "صباحا"' });
    expect([res.statusCode, res.json().data]).toEqual([
      201,
      expect.objectContaining({ state: 'queued', to: PHONE }),
    ]);
    await t.app.jobs.drain();
    const [message] = await messagesOf(client.id);
    expect(message).toMatchObject({
      state: 'sent',
      providerId: expect.stringMatching(/^sms-/),
      createdBy: admin.user.id,
    });
    const request = gateway.requests.at(-1)!;
    expect([request.method, request.url, request.headers.authorization]).toEqual([
      'POST',
      '/send',
      'Bearer sms-key',
    ]);
    expect(request.json).toEqual({ to: PHONE, text: 'موعدكم غدا "صباحا"' });
  });

  it("files a one-off message under one of the client's lawsuits; refuses another client's lawsuit or none", async () => {
    const client = await createRow(t.app, h(), 'customers', { mobile: PHONE, smsOptIn: '2026-01-20' });
    const other = await createRow(t.app, h(), 'customers', { mobile: PHONE, smsOptIn: '2026-01-20' });
    const own = await createRow(t.app, h(), 'lawsuits', {
      customerIds: [client.id],
      filingDate: '2026-01-10',
    });
    const foreign = await createRow(t.app, h(), 'lawsuits', {
      customerIds: [other.id],
      filingDate: '2026-01-10',
    });
    const send = (payload: Record<string, unknown>, lang = 'en') =>
      t.app.inject({ method: 'POST', url: customerMessages(client.id), headers: h(lang), payload });

    const notHis = await send({ channel: 'sms', body: 'بخصوص الدعوى', lawsuitId: foreign.id });
    expect([notHis.statusCode, notHis.json().errors]).toEqual([
      422,
      { lawsuitId: [expect.stringContaining("not one of this client's")] },
    ]);
    const missing = await send({ channel: 'sms', body: 'بخصوص الدعوى', lawsuitId: 999_999 }, 'ar');
    expect([missing.statusCode, missing.json().errors]).toEqual([
      422,
      { lawsuitId: [expect.stringContaining('الدعوى')] },
    ]);
    const wrongType = await send({ channel: 'sms', body: 'بخصوص الدعوى', lawsuitId: 'x' });
    expect([wrongType.statusCode, Object.keys(wrongType.json().errors)]).toEqual([422, ['lawsuitId']]);
    expect(await messagesOf(client.id)).toEqual([]);

    const res = await send({ channel: 'sms', body: 'بخصوص الدعوى', lawsuitId: own.id });
    expect([res.statusCode, res.json().data?.lawsuitId]).toEqual([201, own.id]);
    const tab = await t.app.inject({ method: 'GET', url: lawsuitMessages(own.id), headers: h() });
    expect(tab.json().data.items.map((m: CustomerMessage) => [m.customerId, m.body, m.event])).toEqual([
      [client.id, 'بخصوص الدعوى', null],
    ]);
    expect((await messagesOf(client.id)).map((m) => m.lawsuitId)).toEqual([own.id]);
  });

  it('a test send answers what the provider said', async () => {
    gateway.failNext(1, 401);
    const refused = await t.app.inject({
      method: 'POST',
      url: API_BASE + MESSAGE_ROUTES.testProvider.path,
      headers: h(),
      payload: { channel: 'sms', to: ARABIC_PHONE },
    });
    expect(refused.json().data).toEqual({
      ok: false,
      providerId: null,
      reason: expect.stringContaining('HTTP 401'),
    });
    const ok = await t.app.inject({
      method: 'POST',
      url: API_BASE + MESSAGE_ROUTES.testProvider.path,
      headers: h(),
      payload: { channel: 'whatsapp', to: PHONE },
    });
    expect(ok.json().data).toEqual({ ok: true, providerId: expect.stringMatching(/^wamid\./), reason: null });
  });
});
