import { API_BASE, invoiceLines, invoices, type CustomerMessage, MESSAGE_ROUTES } from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { configureProviders, createRow, entityUrl, rewriteMessageTemplate } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';
import { startHttpStandIn } from '../test/httpStandIn';

const customerMessages = (id: number) => API_BASE + MESSAGE_ROUTES.customer.path.replace(':id', String(id));
const PHONE = '+201001234567';

/**
 * The events other modules raise: an invoice issued (finance) and a deadline falling due (the
 * deadlines module's morning job), each sent once over the provider's real protocol.
 */
describe.each(dialects())('client messages raised by invoices and deadlines on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  let gateway: Awaited<ReturnType<typeof startHttpStandIn>>;
  let whatsapp: Awaited<ReturnType<typeof startHttpStandIn>>;
  const others: FastifyInstance[] = [];
  const clock = { now: new Date('2026-04-12T08:00:00Z') };
  let sent = 0;

  const h = () => ({ ...admin.headers, 'accept-language': 'en' });
  const ok = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, status = [200, 201]) => {
    const res = await t.app.inject({ method, url, headers: h(), payload });
    expect([status.includes(res.statusCode), res.json().errors]).toEqual([true, undefined]);
    return res.json().data as Record<string, unknown> & { id: number };
  };
  const messagesOf = async (id: number) =>
    (await ok('GET', customerMessages(id))).items as unknown as CustomerMessage[];
  const drain = async () => {
    await t.app.jobs.drain();
    for (const app of others) await app.jobs.drain();
  };

  beforeAll(async () => {
    gateway = await startHttpStandIn(() => ({ status: 200, body: { id: `sms-${++sent}` } }));
    whatsapp = await startHttpStandIn(() => ({
      status: 200,
      body: { messages: [{ id: `wamid.${++sent}` }] },
    }));
    t = await createTestApp({ dialect, app: { clock: () => clock.now } });
    admin = await t.login();
    const saved = await configureProviders(
      t.app,
      h(),
      { sms: gateway, whatsapp },
      { whatsapp: { token: 'wa-token' } },
    );
    expect([saved.statusCode, saved.json().errors]).toEqual([200, undefined]);
  });
  afterAll(async () => {
    for (const app of others) await app.close();
    await t?.close();
    await Promise.all([gateway?.close(), whatsapp?.close()]);
  });

  it('an issued invoice sends its number and total with the currency, once, by SMS', async () => {
    // The office rewrites its default English text.
    const template = await rewriteMessageTemplate(t.app, h(), 'invoiceIssued', 'en', {
      body: 'Dear {client.name}, invoice {event.invoiceNumber} for {event.total} is issued.',
    });
    expect(template.event).toBe('invoiceIssued');
    const client = await createRow(t.app, h(), 'customers', {
      name: 'Said Ali',
      mobile: PHONE,
      language: 'en',
      smsOptIn: '2026-01-05',
      emailOptIn: null,
      whatsappOptIn: null,
    });
    const invoice = await ok('POST', entityUrl(invoices), { customerId: client.id });
    await ok('POST', entityUrl(invoiceLines), {
      invoiceId: invoice.id,
      description: 'Pleading',
      unitPrice: 123_456,
    });
    // A draft is no news to the client.
    await drain();
    expect(gateway.requests).toHaveLength(0);
    const issued = await ok('POST', `${entityUrl(invoices)}/${invoice.id}/issue`);
    await drain();
    await drain();

    // 123,456 minor units and the default country's 14 % VAT, in the invoice's frozen currency.
    expect([issued.number, issued.total, issued.currency]).toEqual(['INV-2026-000001', 140_740, 'EGP']);
    expect(gateway.requests).toHaveLength(1);
    expect(gateway.requests[0]!.json).toEqual({
      to: PHONE,
      text: `Dear Said Ali, invoice INV-2026-000001 for 1,407.40 EGP is issued.`,
    });
    expect((await messagesOf(client.id)).map((m) => [m.event, m.channel, m.state])).toEqual([
      ['invoiceIssued', 'sms', 'sent'],
    ]);
  });

  it('a deadline falling due within the lead time sends one WhatsApp, across two instances and a restart', async () => {
    await rewriteMessageTemplate(t.app, h(), 'deadlineApproaching', 'ar', {
      body: 'السيد {client.name}: يحل موعد في دعواكم {lawsuit.fileNumber} يوم {event.newDate}.',
      whatsappTemplate: 'deadline_approaching',
    });
    const client = await createRow(t.app, h(), 'customers', {
      name: 'سعيد علي',
      whatsapp: PHONE,
      language: 'ar',
      whatsappOptIn: '2026-01-05',
      emailOptIn: null,
      smsOptIn: null,
    });
    const lawsuit = await createRow(t.app, h(), 'lawsuits', {
      customerIds: [client.id],
      filingDate: '2026-01-10',
    });
    // Due 20 April: within the clients' lead time (`deadlineNoticeDays`, 3 by default) from 17
    // April, though the lawyers' reminders (`deadlineReminderDays`, 7 at most) start on the 13th.
    await createRow(t.app, h(), 'deadlines', {
      lawsuitId: lawsuit.id,
      action: 'appeal',
      startDate: '2026-03-20',
      dueDate: '2026-04-20',
      ruleId: null,
      event: null,
    });
    // Further off: nothing yet.
    await createRow(t.app, h(), 'deadlines', {
      lawsuitId: lawsuit.id,
      action: 'appeal',
      startDate: '2026-03-20',
      dueDate: '2026-06-01',
      ruleId: null,
      event: null,
    });
    const second = await buildApp(t.config, { clock: () => clock.now });
    others.push(second);
    const tick = async () => {
      const [a, b] = await Promise.all([t.app.scheduler.tick(), second.scheduler.tick()]);
      await drain();
      return [...a, ...b].filter((name) => name === 'messages.deadlineApproaching');
    };
    // The records made for the deadlines (a hearing of another lawsuit) tell their own clients.
    const toClient = () => whatsapp.requests.filter((r) => (r.json as { to?: string }).to === PHONE.slice(1));
    // The first poll schedules the first run (the next morning).
    await tick();
    expect(toClient()).toHaveLength(0);
    for (const [now, told] of [
      ['2026-04-13T05:00:00Z', 0],
      ['2026-04-14T05:00:00Z', 0],
      ['2026-04-17T05:00:00Z', 1],
    ] as const) {
      clock.now = new Date(now);
      expect(await tick()).toHaveLength(1); // one run across the two instances
      expect(toClient()).toHaveLength(told);
    }
    // An instance started anew runs it again the next morning: still nothing more is sent.
    await second.close();
    others.splice(others.indexOf(second), 1);
    const restarted = await buildApp(t.config, { clock: () => clock.now });
    others.push(restarted);
    clock.now = new Date('2026-04-18T05:00:00Z');
    await Promise.all([t.app.scheduler.tick(), restarted.scheduler.tick()]);
    clock.now = new Date('2026-04-19T05:00:00Z');
    await Promise.all([t.app.scheduler.tick(), restarted.scheduler.tick()]);
    await drain();

    expect(toClient()).toHaveLength(1);
    const request = toClient()[0]!;
    expect([request.method, request.url, request.headers.authorization]).toEqual([
      'POST',
      '/v21.0/1098765/messages',
      'Bearer wa-token',
    ]);
    const messages = await messagesOf(client.id);
    expect(messages.map((m) => [m.event, m.channel, m.state, m.lawsuitId])).toEqual([
      ['deadlineApproaching', 'whatsapp', 'sent', lawsuit.id],
    ]);
    expect(messages[0]!.body).toContain('السيد سعيد علي: يحل موعد في دعواكم');
    expect(request.json).toMatchObject({
      messaging_product: 'whatsapp',
      to: PHONE.slice(1),
      type: 'template',
      template: {
        name: 'deadline_approaching',
        language: { code: 'ar' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: messages[0]!.body }] }],
      },
    });
  });
  it("the clients' lead time is a setting of its own: checked (422), and 0 sends nothing", async () => {
    const settings = (deadlineNoticeDays?: unknown) =>
      configureProviders(t.app, h(), { sms: gateway, whatsapp }, { deadlineNoticeDays });
    expect((await ok('GET', API_BASE + MESSAGE_ROUTES.providers.path)).deadlineNoticeDays).toBe(3);
    for (const bad of [-1, 91, 2.5, 'x']) {
      const res = await settings(bad);
      expect([res.statusCode, Object.keys(res.json().errors ?? {})]).toEqual([422, ['deadlineNoticeDays']]);
    }
    expect((await settings(-1)).json().errors.deadlineNoticeDays[0]).toContain("Clients' deadline notice");
    expect((await ok('GET', API_BASE + MESSAGE_ROUTES.providers.path)).deadlineNoticeDays).toBe(3);
    expect((await settings(10)).json().data.deadlineNoticeDays).toBe(10);
    // Left out: kept.
    expect((await settings()).json().data.deadlineNoticeDays).toBe(10);
    expect((await settings(0)).json().data.deadlineNoticeDays).toBe(0);

    const client = await createRow(t.app, h(), 'customers', {
      whatsapp: PHONE,
      whatsappOptIn: '2026-01-05',
      emailOptIn: null,
      smsOptIn: null,
    });
    const lawsuit = await createRow(t.app, h(), 'lawsuits', {
      customerIds: [client.id],
      filingDate: '2026-01-10',
    });
    await createRow(t.app, h(), 'deadlines', {
      lawsuitId: lawsuit.id,
      action: 'appeal',
      startDate: '2026-04-01',
      dueDate: '2026-04-21',
      ruleId: null,
      event: null,
    });
    const toClient = () => whatsapp.requests.filter((r) => (r.json as { to?: string }).to === PHONE.slice(1));
    const before = toClient().length;
    clock.now = new Date('2026-04-20T05:00:00Z');
    expect(await t.app.scheduler.tick()).toContain('messages.deadlineApproaching');
    await drain();
    expect(toClient()).toHaveLength(before);
    expect(await messagesOf(client.id)).toEqual([]);
  });
});
