import {
  compareHearings,
  hearingRoll,
  hearingState,
  hearingTitle,
  toCalendarEvents,
  type HearingPalette,
  type HearingRow,
} from './hearings';

const stamp = '2026-11-01T09:00:00.000Z';
const palette: HearingPalette = {
  primary: { background: 'blue', border: 'blue', text: 'white' },
  danger: { background: 'red', border: 'red', text: 'white' },
  muted: { background: 'grey', border: 'silver', text: 'black' },
};
const words = { versus: 'ضد', separator: '، ' };
const TODAY = '2026-11-23';

/** A hearing row as the list API returns it, with its joined labels and lawsuit details. */
function hearing(id: number, patch: Partial<HearingRow> = {}): HearingRow {
  return {
    id,
    createdAt: stamp,
    updatedAt: stamp,
    lawsuitId: 10 + id,
    lawsuit: { id: 10 + id, name: `${100 + id}/2026` },
    date: TODAY,
    time: null,
    courtId: 1,
    court: { id: 1, name: 'محكمة شمال القاهرة' },
    circuitId: 2,
    circuit: { id: 2, name: 'الدائرة ٥ مدني' },
    judgeId: null,
    sessionTypeId: 3,
    sessionType: { id: 3, name: 'مرافعة' },
    attendanceId: null,
    lawyerId: 7,
    lawyer: { id: 7, name: 'سعاد حسن' },
    requirements: null,
    decision: null,
    nextDate: null,
    previousId: null,
    notes: null,
    nextId: null,
    lawsuitInfo: {
      caseNumber: '1520',
      caseYear: 2025,
      customers: [{ id: 1, name: 'أحمد علي' }],
      opponents: [{ id: 2, name: 'شركة النيل' }],
    },
    ...patch,
  } as HearingRow;
}

const events = (rows: HearingRow[]) => toCalendarEvents(rows, { today: TODAY, palette, words });

describe('hearing state', () => {
  it('is overdue when its day has passed with no decision (blank counts as none), not today', () => {
    expect(hearingState(hearing(1, { date: '2026-11-22' }), TODAY)).toBe('overdue');
    expect(hearingState(hearing(1, { date: '2026-11-22', decision: '  ' }), TODAY)).toBe('overdue');
    expect(hearingState(hearing(1, { date: TODAY }), TODAY)).toBe('scheduled');
    expect(hearingState(hearing(1, { date: '2026-11-22', decision: 'حجزت للحكم' }), TODAY)).toBe('scheduled');
  });

  it('is postponed once it has a next hearing or a next date, whatever its day', () => {
    expect(hearingState(hearing(1, { date: '2026-11-01', decision: 'تأجيل', nextId: 9 }), TODAY)).toBe(
      'postponed',
    );
    expect(hearingState(hearing(1, { date: '2026-12-01', nextDate: '2027-01-05' }), TODAY)).toBe('postponed');
  });
});

describe('hearing titles', () => {
  it('reads file number · clients vs opponents', () => {
    expect(hearingTitle(hearing(1), words)).toBe('101/2026 · أحمد علي ضد شركة النيل');
    const many = hearing(2, {
      lawsuitInfo: {
        caseNumber: null,
        caseYear: null,
        customers: [
          { id: 1, name: 'Ahmed Ali' },
          { id: 3, name: 'Mona Adel' },
        ],
        opponents: [{ id: 2, name: 'Nile Co.' }],
      },
    });
    expect(hearingTitle(many, { versus: 'v.', separator: ', ' })).toBe(
      '102/2026 · Ahmed Ali, Mona Adel v. Nile Co.',
    );
  });

  it('leaves out what is not known', () => {
    const noOpponents = hearing(1, {
      lawsuitInfo: {
        caseNumber: null,
        caseYear: null,
        customers: [{ id: 1, name: 'أحمد علي' }],
        opponents: [],
      },
    });
    expect(hearingTitle(noOpponents, words)).toBe('101/2026 · أحمد علي');
    expect(hearingTitle(hearing(1, { lawsuitInfo: undefined } as never), words)).toBe('101/2026');
    // Before the lawsuit's label is joined: its id.
    expect(hearingTitle(hearing(1, { lawsuit: undefined, lawsuitInfo: undefined } as never), words)).toBe(
      '#11',
    );
  });
});

describe('calendar events', () => {
  it('puts a hearing without a time on the whole day and one with a time at that wall-clock time', () => {
    const [timed, allDay] = events([hearing(1), hearing(2, { time: '09:30' })]);
    expect(timed).toMatchObject({ id: '2', start: '2026-11-23T09:30', allDay: false });
    expect(allDay).toMatchObject({ id: '1', start: '2026-11-23', allDay: true });
    // A malformed time (not HH:mm) is no time.
    expect(events([hearing(3, { time: '9:5' })])[0]).toMatchObject({ start: '2026-11-23', allDay: true });
  });

  it('colours by state: primary to come, danger when overdue, muted when postponed', () => {
    const [overdue, postponed, upcoming] = events([
      hearing(1, { date: '2026-11-20' }),
      hearing(2, { date: '2026-11-21', decision: 'للاطلاع', nextId: 5, nextDate: '2026-12-20' }),
      hearing(3, { date: '2026-11-24' }),
    ]);
    expect(overdue).toMatchObject({
      backgroundColor: 'red',
      borderColor: 'red',
      textColor: 'white',
      classNames: ['mizan-hearing', 'mizan-hearing-overdue'],
      extendedProps: { state: 'overdue' },
    });
    expect(postponed).toMatchObject({
      backgroundColor: 'grey',
      borderColor: 'silver',
      textColor: 'black',
      extendedProps: { state: 'postponed' },
    });
    expect(upcoming).toMatchObject({ backgroundColor: 'blue', extendedProps: { state: 'scheduled' } });
  });

  it('keeps the row for the click, titles each event and lists each hearing once, in order', () => {
    const first = hearing(4, { date: '2026-11-24', time: '11:00' });
    const list = events([
      hearing(5, { date: '2026-11-25' }),
      first,
      hearing(6, { date: '2026-11-24', time: '08:15' }),
      first,
    ]);
    expect(list.map((e) => e.id)).toEqual(['6', '4', '5']);
    expect(list[1]!.extendedProps.hearing).toBe(first);
    expect(list[1]!.title).toBe('104/2026 · أحمد علي ضد شركة النيل');
    expect(events([])).toEqual([]);
  });
});

describe('hearing roll', () => {
  const day = '2026-11-24';
  const rows = [
    hearing(1, { date: day, time: null, lawsuit: { id: 11, name: '7/2026' } }),
    hearing(2, { date: day, time: '10:00', court: { id: 4, name: 'محكمة الجيزة' }, courtId: 4 }),
    hearing(3, { date: day, time: '09:00', lawsuit: { id: 13, name: '10/2026' } }),
    hearing(4, { date: day, time: '09:00', lawsuit: { id: 14, name: '9/2026' } }),
    hearing(5, { date: '2026-11-25', time: '08:00' }),
    hearing(6, { date: day, time: '10:00' }),
  ];

  it("lists that day's hearings only, by time (none last), then court (الجيزة before شمال القاهرة), then file number as numbers", () => {
    const roll = hearingRoll(rows, day);
    expect(roll.map((l) => l.id)).toEqual([4, 3, 2, 6, 1]);
    expect(roll.map((l) => l.fileNumber)).toEqual(['9/2026', '10/2026', '102/2026', '106/2026', '7/2026']);
    expect(roll.map((l) => l.time)).toEqual(['09:00', '09:00', '10:00', '10:00', null]);
    expect(hearingRoll(rows, '2026-11-26')).toEqual([]);
  });

  it('gives each line what the lawyer needs at court', () => {
    const [line] = hearingRoll(
      [hearing(8, { date: day, time: '09:00', requirements: ' إعلان الخصم ' })],
      day,
    );
    expect(line).toEqual({
      id: 8,
      time: '09:00',
      court: 'محكمة شمال القاهرة',
      circuit: 'الدائرة ٥ مدني',
      fileNumber: '108/2026',
      caseNumber: '1520/2025',
      clients: ['أحمد علي'],
      opponents: ['شركة النيل'],
      sessionType: 'مرافعة',
      requirements: 'إعلان الخصم',
      lawyer: 'سعاد حسن',
    });
    const bare = hearingRoll(
      [
        hearing(9, {
          date: day,
          court: null,
          courtId: null,
          circuit: null,
          lawyer: null,
          sessionType: null,
          lawsuitInfo: { caseNumber: '33', caseYear: null, customers: [], opponents: [] },
        }),
      ],
      day,
    )[0]!;
    expect(bare).toMatchObject({ court: '', circuit: '', caseNumber: '33', lawyer: '', sessionType: '' });
  });

  it('orders days before times', () => {
    expect(
      compareHearings(hearing(1, { date: '2026-11-24', time: '08:00' }), hearing(2, { date: '2026-11-23' })),
    ).toBe(1);
  });
});
