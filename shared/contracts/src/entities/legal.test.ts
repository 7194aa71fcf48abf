import { createSchema, listQuerySchema } from '../schema';
import { closeLawsuitBody, lawsuits, opponents } from './legal';

const issues = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  result.error?.issues.map((i) => [i.path.join('.'), i.message]) ?? [];

describe('lawsuits list query', () => {
  const query = listQuerySchema(lawsuits);

  it('reads date filters as calendar days (Eastern digits too) and the hearing window as an integer', () => {
    expect(
      query.parse({ filedFrom: '2026-01-31', filedTo: '٢٠٢٦-٠٢-٢٨', hearingWithinDays: '٧' }),
    ).toMatchObject({
      filedFrom: '2026-01-31',
      filedTo: '2026-02-28',
      hearingWithinDays: 7,
    });
  });

  it.each([
    ['2026-02-30', 'validation.date.invalid'],
    ['2026-13-01', 'validation.date.invalid'],
    ['2026-1-5', 'validation.date.format'],
    ['31/01/2026', 'validation.date.format'],
  ])('refuses filedFrom=%s (%s)', (value, message) => {
    expect(issues(query.safeParse({ filedFrom: value }))).toEqual([['filedFrom', message]]);
  });

  it('bounds the hearing window', () => {
    expect(issues(query.safeParse({ hearingWithinDays: '-1' }))).toEqual([
      ['hearingWithinDays', 'validation.number.min'],
    ]);
    expect(issues(query.safeParse({ hearingWithinDays: '367' }))).toEqual([
      ['hearingWithinDays', 'validation.number.max'],
    ]);
  });
});

describe('lawsuit bodies', () => {
  it('close needs the final case, as an id (Eastern digits read)', () => {
    expect(closeLawsuitBody.parse({ lawsuitCaseId: '١٢' })).toEqual({ lawsuitCaseId: 12 });
    expect(issues(closeLawsuitBody.safeParse({}))).toEqual([['lawsuitCaseId', 'validation.required']]);
    expect(issues(closeLawsuitBody.safeParse({ lawsuitCaseId: 'x' }))).toEqual([
      ['lawsuitCaseId', 'validation.types.integer'],
    ]);
  });

  it('a lawsuit needs a client; its file number may be left blank (generated), its state defaults to active', () => {
    const schema = createSchema(lawsuits);
    expect(issues(schema.safeParse({ customerIds: [] }))).toEqual([['customerIds', 'validation.required']]);
    expect(schema.parse({ customerIds: [3] })).toEqual({ customerIds: [3] });
    expect(lawsuits.fields.state.default).toBe('active');
  });

  it('an opponent needs only a name (identifiers optional, unlike a client)', () => {
    expect(createSchema(opponents).parse({ name: 'خصم' })).toEqual({ name: 'خصم' });
  });
});
