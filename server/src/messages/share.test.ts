import FormData from 'form-data';
import {
  API_BASE,
  MESSAGE_ROUTES,
  attachmentGroups,
  attachments,
  permissionKey,
  type CustomerMessage,
  type SharePreview,
} from '@mizan/contracts';
import { startTestSmtp } from '../mail/testSmtp';
import {
  configureProviders,
  countRows,
  createRow,
  createUserWith,
  deleteMessageTemplates,
  entityUrl,
  messageTemplatesOf,
  rewriteMessageTemplate,
} from '../test/fixtures';
import { createTestApp, splitDialects, type Session, type TestApp } from '../test/harness';
import { startHttpStandIn, type RecordedRequest } from '../test/httpStandIn';

// A project's `testTimeout` is ignored when Jest runs several projects: set it here (app start-up on a busy machine).
jest.setTimeout(90_000);

const shareUrl = (lawsuitId: number, attachmentId: number) =>
  API_BASE +
  MESSAGE_ROUTES.share.path.replace(':id', String(lawsuitId)).replace(':attachmentId', String(attachmentId));
const customerMessages = (id: number) => API_BASE + MESSAGE_ROUTES.customer.path.replace(':id', String(id));
const lawsuitMessages = (id: number) => API_BASE + MESSAGE_ROUTES.lawsuit.path.replace(':id', String(id));
const PHONE = '+201001234567';
const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
/** Over the mail limit these tests set (0.001 MB, 1048 bytes). */
const BIG_PDF = Buffer.concat([PDF, Buffer.alloc(2000, 0x20)]);

describe.each(splitDialects())('sharing a lawsuit attachment with its clients on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  let whatsapp: Awaited<ReturnType<typeof startHttpStandIn>>;
  let gateway: Awaited<ReturnType<typeof startHttpStandIn>>;
  const clock = { now: new Date('2026-03-01T08:00:00Z') };
  const later = (ms: number) => (clock.now = new Date(clock.now.getTime() + ms));
  let sent = 0;
  let uploads = 0;
  /** The next WhatsApp document message is answered 503, as a Cloud API down for a moment. */
  let failDocument = false;
  let agreed: number;
  let declined: number;
  let stranger: number;
  let lawsuit: number;
  let otherLawsuit: number;
  let group: number;
  let template: Record<string, unknown> & { id: number };

  const h = (lang = 'en') => ({ ...admin.headers, 'accept-language': lang });
  const share = (lawsuitId: number, attachmentId: number, payload: object = {}, lang = 'en') =>
    t.app.inject({ method: 'POST', url: shareUrl(lawsuitId, attachmentId), headers: h(lang), payload });
  const messagesOf = async (url: string): Promise<CustomerMessage[]> => {
    const res = await t.app.inject({ method: 'GET', url, headers: h() });
    expect(res.statusCode).toBe(200);
    return res.json().data.items as CustomerMessage[];
  };
  const attach = async (lawsuitId: number, title: string, file: Buffer, filename = 'petition.pdf') => {
    const form = new FormData();
    form.append('lawsuitId', String(lawsuitId));
    form.append('groupId', String(group));
    form.append('title', title);
    form.append('files', file, { filename, contentType: 'application/pdf' });
    const res = await t.app.inject({
      method: 'POST',
      url: entityUrl(attachments),
      headers: { ...h(), ...form.getHeaders() },
      payload: form,
    });
    expect([res.statusCode, res.json().errors]).toEqual([201, undefined]);
    return res.json().data.id as number;
  };
  const count = (table: string) => countRows(t.app, table);
  const kindOf = (r: RecordedRequest) =>
    r.url.endsWith('/media') ? 'media' : String((r.json as { type?: string } | null)?.type);

  beforeAll(async () => {
    smtp = await startTestSmtp();
    whatsapp = await startHttpStandIn((request) => {
      if (request.url.endsWith('/media')) return { status: 200, body: { id: `media-${++uploads}` } };
      if ((request.json as { type?: string }).type === 'document' && failDocument) {
        failDocument = false;
        return { status: 503, body: { error: { message: 'service unavailable' } } };
      }
      return { status: 200, body: { messages: [{ id: `wamid.${++sent}` }] } };
    });
    gateway = await startHttpStandIn(() => ({ status: 200, body: { id: `sms-${++sent}` } }));
    t = await createTestApp({
      dialect,
      env: { SMTP_URL: smtp.url, MIZAN_MAIL_MAX_ATTACHMENT_MB: '0.001' },
      app: { clock: () => clock.now },
    });
    admin = await t.login();
    const saved = await configureProviders(
      t.app,
      h(),
      { sms: gateway, whatsapp },
      { whatsapp: { token: 'wa-token' } },
    );
    expect(saved.statusCode).toBe(200);
    // The office rewrites its default Arabic text.
    template = await rewriteMessageTemplate(t.app, h(), 'documentShared', 'ar', {
      subject: 'مستند من {office.name}',
      body: 'السيد {client.name}: أرسلنا إليكم «{event.document}» بالبريد الإلكتروني وواتساب.',
      whatsappTemplate: 'document_shared',
    });
    agreed = (
      await createRow(t.app, h(), 'customers', {
        name: 'سعيد علي',
        email: 'said@client.test',
        whatsapp: PHONE,
        mobile: PHONE,
        language: 'ar',
        emailOptIn: '2026-01-05',
        smsOptIn: '2026-01-05',
        whatsappOptIn: '2026-01-05',
      })
    ).id;
    declined = (
      await createRow(t.app, h(), 'customers', {
        name: 'منى حسن',
        email: 'no@client.test',
        whatsapp: PHONE,
        mobile: PHONE,
        emailOptIn: null,
        smsOptIn: null,
        whatsappOptIn: null,
      })
    ).id;
    stranger = (await createRow(t.app, h(), 'customers', { mobile: PHONE, smsOptIn: '2026-01-05' })).id;
    lawsuit = (
      await createRow(t.app, h(), 'lawsuits', { customerIds: [agreed, declined], filingDate: '2026-01-10' })
    ).id;
    otherLawsuit = (
      await createRow(t.app, h(), 'lawsuits', { customerIds: [stranger], filingDate: '2026-01-10' })
    ).id;
    const groups = await t.app.inject({ method: 'GET', url: entityUrl(attachmentGroups), headers: h() });
    group = groups.json().data.items[0].id;
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([smtp?.close(), whatsapp?.close(), gateway?.close()]);
  });

  it('sends one email with the file attached and one WhatsApp document to the client who agreed, the SMS text only, nothing to one who did not', async () => {
    const attachment = await attach(lawsuit, 'صحيفة الدعوى', PDF);
    const preview = await t.app.inject({
      method: 'GET',
      url: shareUrl(lawsuit, attachment),
      headers: h(),
    });
    expect(preview.json().data as SharePreview).toEqual({
      files: [{ name: 'petition.pdf', size: PDF.length }],
      recipients: [
        { customerId: agreed, name: 'سعيد علي', channels: ['email', 'sms', 'whatsapp'] },
        { customerId: declined, name: 'منى حسن', channels: [] },
      ],
    });

    const res = await share(lawsuit, attachment);
    expect([res.statusCode, res.json().errors]).toEqual([201, undefined]);
    const items = res.json().data.items as CustomerMessage[];
    expect(items.map((m) => [m.customerId, m.channel, m.state, m.event, m.createdBy])).toEqual([
      [agreed, 'email', 'queued', 'documentShared', admin.user.id],
      [agreed, 'sms', 'queued', 'documentShared', admin.user.id],
      [agreed, 'whatsapp', 'queued', 'documentShared', admin.user.id],
    ]);
    expect(items[0]!.body).toBe('السيد سعيد علي: أرسلنا إليكم «صحيفة الدعوى» بالبريد الإلكتروني وواتساب.');

    await t.app.jobs.drain();
    expect((await messagesOf(lawsuitMessages(lawsuit))).map((m) => [m.channel, m.state])).toEqual([
      ['whatsapp', 'sent'],
      ['sms', 'sent'],
      ['email', 'sent'],
    ]);
    expect(await messagesOf(customerMessages(declined))).toEqual([]);

    // The mail carries the file as an attachment.
    const mail = await smtp.next();
    expect(mail.to).toEqual(['said@client.test']);
    expect(mail.raw).toMatch(/Content-Disposition: attachment; filename=petition\.pdf/);
    expect(mail.raw).toContain(PDF.toString('base64'));

    // WhatsApp: the file uploaded, the template message, then the document by its media id.
    expect(whatsapp.requests.map(kindOf)).toEqual(['media', 'template', 'document']);
    const [upload, text, document] = whatsapp.requests;
    expect([upload!.url, upload!.headers.authorization]).toEqual(['/v21.0/1098765/media', 'Bearer wa-token']);
    expect(upload!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(upload!.raw.includes(PDF)).toBe(true);
    expect(upload!.body).toContain('name="messaging_product"\r\n\r\nwhatsapp');
    expect(text!.json).toMatchObject({ to: PHONE.slice(1), template: { name: 'document_shared' } });
    expect([document!.url, document!.json]).toEqual([
      '/v21.0/1098765/messages',
      {
        messaging_product: 'whatsapp',
        to: PHONE.slice(1),
        type: 'document',
        document: { id: 'media-1', filename: 'petition.pdf' },
      },
    ]);
    // The SMS: the text alone.
    expect(gateway.requests).toHaveLength(1);
    expect(gateway.requests[0]!.json).toEqual({ to: PHONE, text: items[1]!.body });

    const audit = await t.app.db
      .selectFrom('audit_log')
      .select(['action', 'after'])
      .where('entity', '=', 'attachments')
      .where('entity_id', '=', attachment)
      .where('action', '=', 'share')
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(String(audit[0]!.after))).toMatchObject({
      lawsuitId: lawsuit,
      customerIds: [agreed],
      messageIds: items.map((m) => m.id),
    });

    // Each share is told once: sharing it again is another message.
    const again = await share(lawsuit, attachment, { customerIds: [agreed] });
    expect([again.statusCode, again.json().data.items.length]).toEqual([201, 3]);
    await t.app.jobs.drain();
    expect(await messagesOf(customerMessages(agreed))).toHaveLength(6);
    await smtp.next();
  });

  it('a WhatsApp document that fails is retried alone: the client receives each part once', async () => {
    const attachment = await attach(lawsuit, 'مذكرة دفاع', PDF, 'memo.pdf');
    const before = whatsapp.requests.length;
    const mailsBefore = await count('outbox');
    failDocument = true;
    const res = await share(lawsuit, attachment, { customerIds: [agreed] });
    expect(res.statusCode).toBe(201);
    await t.app.jobs.drain();
    const waiting = (await messagesOf(customerMessages(agreed))).find(
      (m) => m.channel === 'whatsapp' && m.id === res.json().data.items[2].id,
    )!;
    expect(waiting).toMatchObject({
      state: 'queued',
      attempts: 1,
      reason: expect.stringContaining('HTTP 503'),
    });

    later(31_000);
    await t.app.jobs.drain();
    later(3_600_000);
    await t.app.jobs.drain();
    const done = (await messagesOf(customerMessages(agreed))).find((m) => m.id === waiting.id)!;
    expect(done).toMatchObject({ state: 'sent', attempts: 2, providerId: expect.stringMatching(/^wamid\./) });
    // One upload, one text, the document twice (the first refused): never the text again.
    expect(whatsapp.requests.slice(before).map(kindOf)).toEqual([
      'media',
      'template',
      'document',
      'document',
    ]);
    expect(whatsapp.requests.at(-1)!.json).toMatchObject({ document: { filename: 'memo.pdf' } });
    expect(await count('outbox')).toBe(mailsBefore + 1);
    await smtp.next();
  });

  it('refuses before anything is queued: a file over the email limit, a client not of the lawsuit or who agreed to nothing, another lawsuit', async () => {
    const big = await attach(lawsuit, 'حافظة مستندات', BIG_PDF);
    const small = await attach(lawsuit, 'إعلان', PDF);
    const foreign = await attach(otherLawsuit, 'حكم', PDF);
    const messages = await count('client_messages');
    const jobs = await count('jobs');

    const tooBig = await share(lawsuit, big);
    expect([tooBig.statusCode, tooBig.json().errors]).toEqual([
      422,
      { files: [expect.stringContaining('over the email limit')] },
    ]);
    const tooBigAr = await share(lawsuit, big, {}, 'ar');
    expect(tooBigAr.json().errors.files[0]).toContain('حد البريد الإلكتروني');

    const notHis = await share(lawsuit, small, { customerIds: [stranger] });
    expect([notHis.statusCode, notHis.json().errors]).toEqual([
      422,
      { customerIds: [expect.stringContaining("not one of this lawsuit's clients")] },
    ]);
    const silent = await share(lawsuit, small, { customerIds: [declined] }, 'ar');
    expect([silent.statusCode, silent.json().errors.customerIds[0]]).toEqual([
      422,
      expect.stringContaining('منى حسن'),
    ]);
    const badBody = await share(lawsuit, small, { customerIds: ['x'] });
    expect([badBody.statusCode, Object.keys(badBody.json().errors)]).toEqual([422, ['customerIds']]);
    expect((await share(lawsuit, foreign)).statusCode).toBe(404);
    // Without a template for the event (the office deleted both languages') there is nothing to say.
    await deleteMessageTemplates(t.app, h(), 'documentShared');
    expect(await messageTemplatesOf(t.app, h(), 'documentShared')).toEqual([]);
    const noTemplate = await share(lawsuit, small);
    expect([noTemplate.statusCode, noTemplate.json().errors]).toEqual([
      422,
      { customerIds: [expect.stringContaining('no message template')] },
    ]);
    template = await createRow(t.app, h(), 'messageTemplates', {
      ...template,
      id: undefined,
      name: 'مشاركة',
    });

    expect(await count('client_messages')).toBe(messages);
    expect(await count('jobs')).toBe(jobs);
  });

  it('a user who may not message clients is refused (403)', async () => {
    const attachment = await attach(lawsuit, 'محضر', PDF);
    const user = await createUserWith(t.app, admin.headers, [
      permissionKey('lawsuits', 'view'),
      permissionKey('attachments', 'view'),
      permissionKey('customers', 'view'),
    ]);
    const session = await t.login(user.email, user.password);
    const messages = await count('client_messages');
    for (const method of ['GET', 'POST'] as const) {
      const res = await t.app.inject({
        method,
        url: shareUrl(lawsuit, attachment),
        headers: session.headers,
        ...(method === 'POST' ? { payload: {} } : {}),
      });
      expect([method, res.statusCode]).toEqual([method, 403]);
    }
    expect(await count('client_messages')).toBe(messages);
  });
});
