import { acceptedType } from './sniff';

const PDF_ONLY = ['application/pdf'];
const OFFICE = [
  'application/pdf',
  'image/png',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'text/csv',
];

describe('acceptedType', () => {
  it('names exact formats by their bytes, whatever was declared', () => {
    expect(acceptedType(Buffer.from('%PDF-1.4 ...'), 'application/octet-stream', PDF_ONLY)).toBe(
      'application/pdf',
    );
    expect(
      acceptedType(
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]),
        'application/pdf',
        PDF_ONLY,
      ),
    ).toBeNull();
    expect(acceptedType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg', ['image/jpeg'])).toBe(
      'image/jpeg',
    );
  });

  it('takes the declared type of containers and text only when the bytes agree', () => {
    const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2]);
    const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    expect(acceptedType(zip, docx, OFFICE)).toBe(docx);
    expect(acceptedType(zip, 'image/png', OFFICE)).toBeNull();
    const cfb = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    expect(acceptedType(cfb, 'application/msword', OFFICE)).toBe('application/msword');
    expect(acceptedType(Buffer.from('name,code\nمصر,EG\n'), 'text/csv', OFFICE)).toBe('text/csv');
    expect(acceptedType(Buffer.from('name,code\n'), 'application/pdf', OFFICE)).toBeNull();
    expect(acceptedType(Buffer.from([0x4d, 0x5a, 0, 0, 3]), 'text/csv', OFFICE)).toBeNull();
    expect(acceptedType(Buffer.alloc(0), 'text/csv', OFFICE)).toBeNull();
  });
});
