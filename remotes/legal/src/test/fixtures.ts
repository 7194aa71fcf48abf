import {
  administrativeSections,
  attachmentGroups,
  attachments,
  branches,
  circuits,
  courts,
  customers,
  employees,
  judges,
  lawsuitCases,
  lawsuitOwners,
  lawsuitPayments,
  lawsuitTypes,
  lawsuits,
  opponents,
  sessions,
  type Entity,
  type Fields,
} from '@mizan/contracts';
import type { Row } from './server';

/** Every definition the legal screens read. */
export const LEGAL_ENTITIES = [
  lawsuits,
  sessions,
  lawsuitPayments,
  attachments,
  attachmentGroups,
  courts,
  circuits,
  judges,
  lawsuitTypes,
  lawsuitCases,
  lawsuitOwners,
  branches,
  administrativeSections,
  customers,
  opponents,
  employees,
] as unknown as readonly Entity<Fields>[];

/** Every permission of these definitions (and their actions). */
export const ALL_PERMISSIONS = [
  ...['lawsuits', 'sessions', 'lawsuitPayments', 'attachments', 'attachmentGroups'].flatMap((name) =>
    ['view', 'create', 'update', 'delete', 'export'].map((a) => `${name}.${a}`),
  ),
  'lawsuits.close',
  'lawsuits.reopen',
  'sessions.postpone',
  ...['courts', 'circuits', 'judges', 'lawsuitCases', 'customers', 'opponents', 'employees'].map(
    (n) => `${n}.view`,
  ),
];

/** Two courts with their circuits, a judge per circuit. */
export const BENCH: Record<string, Row[]> = {
  courts: [
    { id: 1, name: 'محكمة شمال القاهرة' },
    { id: 2, name: 'محكمة الجيزة' },
  ],
  circuits: [
    { id: 11, name: 'الدائرة الأولى مدني', number: 1, courtId: 1 },
    { id: 12, name: 'الدائرة الثانية تجاري', number: 2, courtId: 1 },
    { id: 21, name: 'الدائرة الخامسة جنايات', number: 5, courtId: 2 },
  ],
  judges: [
    { id: 111, name: 'المستشار حسن فؤاد', circuitId: 11 },
    { id: 121, name: 'المستشار سامي رزق', circuitId: 12 },
    { id: 211, name: 'المستشارة منى لطفي', circuitId: 21 },
  ],
  lawsuitCases: [
    { id: 5, name: 'حكم نهائي لصالح الموكل', outcome: 'won' },
    { id: 6, name: 'حكم نهائي ضد الموكل', outcome: 'lost' },
    { id: 7, name: 'قيد النظر', outcome: 'ongoing' },
  ],
  customers: [{ id: 3, name: 'أحمد إبراهيم علي', kind: 'person' }],
  opponents: [{ id: 4, name: 'شركة النيل للمقاولات', kind: 'company' }],
};

/** One active lawsuit with an agreed fee of 15,000.00 (minor units). */
export const LAWSUIT: Row = {
  id: 7,
  fileNumber: '2026/0007',
  caseNumber: '1234',
  caseYear: 2026,
  courtId: 1,
  court: { id: 1, name: 'محكمة شمال القاهرة' },
  circuitId: 11,
  circuit: { id: 11, name: 'الدائرة الأولى مدني' },
  customerIds: [3],
  customers: [{ id: 3, name: 'أحمد إبراهيم علي' }],
  opponentIds: [4],
  opponents: [{ id: 4, name: 'شركة النيل للمقاولات' }],
  lawyerIds: [],
  agreedFee: 1_500_000,
  claimAmount: 25_000_000,
  state: 'active',
  lawsuitCaseId: null,
  filingDate: '2026-01-15',
  subject: 'مطالبة بقيمة أعمال مقاولات',
};
