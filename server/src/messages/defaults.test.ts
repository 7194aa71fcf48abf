import {
  API_BASE,
  MESSAGE_EVENTS,
  MESSAGE_LANGUAGES,
  MESSAGE_ROUTES,
  type CustomerMessage,
  type MessageEvent,
} from '@mizan/contracts';
import { buildApp } from '../app';
import { configureProviders, createRow, entityUrl } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';
import { startHttpStandIn } from '../test/httpStandIn';
import { DEFAULT_MESSAGE_TEMPLATES } from './defaults';
import type { EventPayload } from './outbox';
import { emptyTags, renderText, unknownTags } from './render';

type Row = Record<string, unknown> & { id: number };

const customerMessages = (id: number) => API_BASE + MESSAGE_ROUTES.customer.path.replace(':id', String(id));
const PHONE = '+201001234567';
const PHONE_EN = '+201001234568';
const arabicDigits = (text: string) => text.replace(/\d/g, (d) => '٠١٢٣٤٥٦٧٨٩'[Number(d)]!);

/**
 * The client messages a new office starts with: one per event and language, filed once per
 * database, each naming only fields its event's record fills.
 */
describe.each(dialects())('default client messages on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  let gateway: Awaited<ReturnType<typeof startHttpStandIn>>;
  let sent = 0;

  const h = () => ({ ...admin.headers, 'accept-language': 'en' });
  const templates = async (app = t.app): Promise<Row[]> => {
    const res = await app.inject({
      method: 'GET',
      url: `${entityUrl('messageTemplates')}?pageSize=100`,
      headers: h(),
    });
    expect(res.statusCode).toBe(200);
    return (res.json().data.items as Row[]).sort((a, b) => a.id - b.id);
  };
  /** A client who agreed to SMS only. */
  const smsClient = (name: string, language: 'ar' | 'en', mobile: string) =>
    createRow(t.app, h(), 'customers', {
      name,
      language,
      mobile,
      smsOptIn: '2026-01-05',
      emailOptIn: null,
      whatsappOptIn: null,
    });
  /** A lawsuit before a court, with its client and a hearing that decided something. */
  const seedCase = async (courtName: string, otherClients: number[] = []) => {
    const court = await createRow(t.app, h(), 'courts', { name: courtName });
    const customer = await smsClient('سعيد علي', 'ar', PHONE);
    const lawsuit = await createRow(t.app, h(), 'lawsuits', {
      customerIds: [customer.id, ...otherClients],
      courtId: court.id,
      filingDate: '2026-01-10',
    });
    return { court, customer, lawsuit };
  };

  beforeAll(async () => {
    gateway = await startHttpStandIn(() => ({ status: 200, body: { id: `sms-${++sent}` } }));
    t = await createTestApp({ dialect });
    admin = await t.login();
    const saved = await configureProviders(t.app, h(), { sms: gateway });
    expect([saved.statusCode, saved.json().errors]).toEqual([200, undefined]);
  });
  afterAll(async () => {
    await t?.close();
    await gateway?.close();
  });

  it('a new office has a text for every event in Arabic and English, each with an email subject', async () => {
    const rows = await templates();
    expect(rows).toHaveLength(12);
    expect(rows.map((r) => `${r.event}:${r.language}`).sort()).toEqual(
      MESSAGE_EVENTS.flatMap((e) => MESSAGE_LANGUAGES.map((l) => `${e}:${l}`)).sort(),
    );
    expect(rows.map((r) => [r.name, r.subject, r.body])).toEqual(
      DEFAULT_MESSAGE_TEMPLATES.map((d) => [d.name, d.subject, d.body]),
    );
    for (const row of rows) {
      // The office names its own Meta-approved WhatsApp template.
      expect([row.name, row.whatsappTemplate]).toEqual([row.name, null]);
      expect(unknownTags(row.event as MessageEvent, row.subject as string, row.body as string)).toEqual([]);
    }
  });

  it('each default renders for a seeded record with every merge field filled', async () => {
    const { customer, lawsuit } = await seedCase('محكمة شمال القاهرة الابتدائية');
    const hearing = await createRow(t.app, h(), 'sessions', {
      lawsuitId: lawsuit.id,
      date: '2026-03-01',
      decision: 'حكمت المحكمة بإلزام المدعى عليه بأداء المبلغ المطالب به',
      judgment: false,
    });
    const payloads: Record<MessageEvent, EventPayload> = {
      hearingScheduled: { event: 'hearingScheduled', recordId: hearing.id },
      hearingPostponed: {
        event: 'hearingPostponed',
        recordId: hearing.id,
        extra: { newDate: '2026-04-12', reason: 'للاطلاع والمستندات' },
      },
      judgmentRecorded: { event: 'judgmentRecorded', recordId: hearing.id },
      deadlineApproaching: {
        event: 'deadlineApproaching',
        recordId: lawsuit.id,
        extra: { newDate: '2026-04-20' },
      },
      documentShared: { event: 'documentShared', recordId: lawsuit.id, extra: { document: 'صحيفة الدعوى' } },
      invoiceIssued: {
        event: 'invoiceIssued',
        recordId: customer.id,
        extra: { invoiceNumber: 'INV-2026-000001', total: 140_740, currency: 'EGP' },
      },
    };
    for (const row of await templates()) {
      const payload = payloads[row.event as MessageEvent];
      const data = {
        ...(await t.app.messages.mergeData(payload, row.language as 'ar' | 'en')),
        client: { name: String(customer.name) },
      };
      const [subject, body] = [row.subject as string, row.body as string];
      expect([row.name, emptyTags(data, subject, body)]).toEqual([row.name, []]);
      for (const text of [renderText(subject, data), renderText(body, data)])
        expect([row.name, text]).toEqual([row.name, expect.not.stringMatching(/[{}]/)]);
    }
  });

  it('a hearing of a lawsuit without a court, or a judgment without a decision, reads as whole sentences', async () => {
    // Words left around an empty field: «أمام ،», "before .", a comma or colon before a full stop.
    const dangling = /(أمام|before)\s*[،,.]|\s[،,.:]|[،,:]\s*[.،,]/;
    const customer = await smsClient('سعيد علي', 'ar', PHONE);
    const english = await smsClient('Said Ali', 'en', PHONE_EN);
    const lawsuit = await createRow(t.app, h(), 'lawsuits', {
      customerIds: [customer.id, english.id],
      courtId: null,
      filingDate: '2026-01-10',
    });
    const hearing = await createRow(t.app, h(), 'sessions', {
      lawsuitId: lawsuit.id,
      date: '2026-03-01',
      courtId: null,
      decision: null,
      judgment: false,
    });
    await t.app.jobs.drain();

    const toldOf = async (id: number) => {
      const res = await t.app.inject({ method: 'GET', url: customerMessages(id), headers: h() });
      return (res.json().data.items as CustomerMessage[]).find((m) => m.event === 'hearingScheduled')!.body;
    };
    const fileNumber = String(lawsuit.fileNumber);
    expect(await toldOf(customer.id)).toBe(
      'السيد/ة سعيد علي،\nتحية طيبة وبعد،\n' +
        `نحيطكم علماً بأنه قد تحدد لنظر دعواكم رقم ${arabicDigits(fileNumber)} جلسة بتاريخ ١٢ رمضان ١٤٤٧ هـ (٣/١/٢٠٢٦)، ` +
        'وسنوافيكم بما يستجد فيها.\nوتفضلوا بقبول فائق الاحترام،\nميزان للمحاماة',
    );
    expect(await toldOf(english.id)).toMatch(
      new RegExp(
        `^Dear Said Ali,\nPlease be advised that a hearing in your case no. ${fileNumber} has been scheduled for ` +
          '[^\\n]*\\d\\)\\. We will keep you informed of its outcome\\.\nYours faithfully,\n',
      ),
    );

    // Every hearing event's default, in both languages, for this hearing as a judgment without a decision.
    for (const row of await templates()) {
      if (!['hearingScheduled', 'hearingPostponed', 'judgmentRecorded'].includes(row.event as string))
        continue;
      const data = {
        ...(await t.app.messages.mergeData(
          {
            event: row.event as MessageEvent,
            recordId: hearing.id,
            extra: { newDate: '2026-04-12', reason: 'للاطلاع' },
          },
          row.language as 'ar' | 'en',
        )),
        client: { name: String(customer.name) },
      };
      const body = row.body as string;
      expect([row.name, emptyTags(data, body)]).toEqual([row.name, []]);
      expect([row.name, renderText(body, data)]).toEqual([row.name, expect.not.stringMatching(dangling)]);
      expect([row.name, renderText(body, data)]).toEqual([row.name, expect.not.stringMatching(/[{}]/)]);
    }
  });

  it("a postponement tells an opted-in client in the default's text, in the client's language", async () => {
    const english = await smsClient('Said Ali', 'en', PHONE_EN);
    const { court, customer, lawsuit } = await seedCase('محكمة جنوب القاهرة الابتدائية', [english.id]);
    const hearing = await createRow(t.app, h(), 'sessions', {
      lawsuitId: lawsuit.id,
      date: '2026-03-01',
      judgment: false,
    });
    const postponed = await t.app.inject({
      method: 'PATCH',
      url: `${entityUrl('sessions')}/${hearing.id}/postpone`,
      headers: h(),
      payload: { updatedAt: hearing.updatedAt, decision: 'للاطلاع والمستندات', nextDate: '2026-04-12' },
    });
    expect([postponed.statusCode, postponed.json().errors]).toEqual([200, undefined]);
    await t.app.jobs.drain();

    const messagesOf = async (id: number) => {
      const res = await t.app.inject({ method: 'GET', url: customerMessages(id), headers: h() });
      return res.json().data.items as CustomerMessage[];
    };
    const arabic = (await messagesOf(customer.id)).find((m) => m.event === 'hearingPostponed')!;
    const fileNumber = String(lawsuit.fileNumber);
    expect(arabic).toMatchObject({ channel: 'sms', state: 'sent' });
    expect(arabic.body).toBe(
      'السيد/ة سعيد علي،\nتحية طيبة وبعد،\n' +
        `نحيطكم علماً بأن جلسة دعواكم رقم ${arabicDigits(fileNumber)} المحددة بتاريخ ١٢ رمضان ١٤٤٧ هـ (٣/١/٢٠٢٦) ` +
        `أمام ${String(court.name)} قد تأجلت إلى ٢٤ شوال ١٤٤٧ هـ (٤/١٢/٢٠٢٦) للسبب: للاطلاع والمستندات.\n` +
        'وتفضلوا بقبول فائق الاحترام،\nميزان للمحاماة',
    );
    const sms = gateway.requests.filter((r) => (r.json as { to: string }).to === PHONE);
    expect(sms.map((r) => (r.json as { text: string }).text)).toContain(arabic.body);

    const inEnglish = (await messagesOf(english.id)).find((m) => m.event === 'hearingPostponed')!;
    expect(inEnglish).toMatchObject({ channel: 'sms', state: 'sent' });
    expect(inEnglish.body).toMatch(
      new RegExp(
        `^Dear Said Ali,\nPlease be advised that the hearing in your case no. ${fileNumber} set for .+ before ` +
          `${String(court.name)} has been postponed to .+\\. Reason: للاطلاع والمستندات\\.\nYours faithfully,\n`,
      ),
    );
    // The new hearing was told too, by its own default.
    expect((await messagesOf(customer.id)).map((m) => m.event).sort()).toEqual([
      'hearingPostponed',
      'hearingScheduled',
    ]);
  });

  it('a default the office deletes or edits stays so after a restart, even with the list emptied', async () => {
    const before = await templates();
    const [edited, deleted] = [before[0]!, before[1]!];
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `${entityUrl('messageTemplates')}/${edited.id}`,
      headers: h(),
      payload: { body: 'السيد/ة {client.name}: جلستكم يوم {session.date}.' },
    });
    expect(patched.statusCode).toBe(200);
    const remove = async (row: Row) => {
      const res = await t.app.inject({
        method: 'DELETE',
        url: `${entityUrl('messageTemplates')}/${row.id}`,
        headers: { ...h(), 'if-unmodified-since': String(row.updatedAt) },
      });
      expect(res.statusCode).toBeLessThan(300);
    };
    await remove(deleted);
    const restart = async () => {
      const again = await buildApp(t.config);
      try {
        return await templates(again);
      } finally {
        await again.close();
      }
    };
    const after = await restart();
    expect(after.map((r) => r.id)).toEqual(before.filter((r) => r !== deleted).map((r) => r.id));
    expect(after[0]!.body).toBe('السيد/ة {client.name}: جلستكم يوم {session.date}.');

    for (const row of await templates()) await remove(row);
    expect(await restart()).toEqual([]);
  });
});
