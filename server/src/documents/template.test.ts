import zlib from 'node:zlib';
import PizZip from 'pizzip';
import { TEMPLATE_UNPACKED_MAX_SIZE } from '@mizan/contracts';
import { AppError } from '../http/errors';
import { buildStarterDocx } from './starters';
import { fillTemplate, openDocx } from './template';

const templateOf = (lines: string[]) =>
  buildStarterDocx({
    file: 'x.docx',
    name: 'x',
    kind: 'other',
    record: 'lawsuit',
    description: '',
    body: lines,
  });

/** The status and first field message of what `fn` throws. */
function refusal(fn: () => unknown): { status: number; key: string } {
  try {
    fn();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const first = Object.values(error.options.errors ?? {})[0]?.[0];
    return { status: error.statusCode, key: typeof first === 'string' ? first : (first?.key ?? '') };
  }
  throw new Error('not refused');
}

/**
 * A ZIP of `parts` (deflated by zlib, fast even for tens of MB of zeros), each declaring the
 * uncompressed size `declared` gives it, its real size otherwise: an archive that may lie.
 */
function zipOf(parts: [string, Buffer][], declared: Record<string, number> = {}): Buffer {
  const local: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of parts) {
    const packed = zlib.deflateRawSync(content);
    const encoded = Buffer.from(name);
    const size = declared[name] ?? content.length;
    const crc = zlib.crc32(content);
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt16LE(8, 8);
    head.writeUInt32LE(crc, 14);
    head.writeUInt32LE(packed.length, 18);
    head.writeUInt32LE(size, 22);
    head.writeUInt16LE(encoded.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(packed.length, 20);
    entry.writeUInt32LE(size, 24);
    entry.writeUInt16LE(encoded.length, 28);
    entry.writeUInt32LE(offset, 42);
    local.push(head, encoded, packed);
    central.push(entry, encoded);
    offset += head.length + encoded.length + packed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...local, directory, end]);
}

describe('bounded unpacking', () => {
  /** A template's parts plus a filler of `size` zeros, the filler declaring `declared` bytes. */
  const filler = (size: number, declared?: number) => {
    const template = new PizZip(templateOf(['{lawsuit.fileNumber}']));
    const parts = Object.entries(template.files as Record<string, { dir: boolean }>)
      .filter(([, f]) => !f.dir)
      .map(([name]): [string, Buffer] => [name, template.file(name)!.asNodeBuffer()]);
    parts.push(['word/media/filler.bin', Buffer.alloc(size)]);
    return zipOf(parts, declared === undefined ? {} : { 'word/media/filler.bin': declared });
  };

  it('an archive that declares small sizes but inflates past the limit is 413, stopped at the limit', () => {
    const bomb = filler(TEMPLATE_UNPACKED_MAX_SIZE + 10 * 1024 * 1024, 1000);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    // Its declared sizes pass the first check: only the real inflation can refuse it.
    const entry = (new PizZip(bomb).files as Record<string, { _data: { uncompressedSize: number } }>)[
      'word/media/filler.bin'
    ]!;
    expect(entry._data.uncompressedSize).toBe(1000);
    expect(refusal(() => openDocx(bomb))).toEqual({ status: 413, key: 'documents.unpackedTooLarge' });
    expect(refusal(() => fillTemplate(bomb, {}))).toEqual({ status: 413, key: 'documents.unpackedTooLarge' });
  });

  it('an archive declaring more than the limit is refused before anything is unpacked (413)', () => {
    const declared = filler(1024, TEMPLATE_UNPACKED_MAX_SIZE + 1);
    expect(refusal(() => openDocx(declared))).toEqual({ status: 413, key: 'documents.unpackedTooLarge' });
  });

  it('an archive that lies about a size within the limit is not a DOCX (415)', () => {
    const liar = filler(2 * 1024 * 1024, 1000);
    expect(refusal(() => openDocx(liar))).toEqual({ status: 415, key: 'documents.notDocx' });
  });

  it('an honest archive opens, and its parts read as written', () => {
    const zip = openDocx(filler(1024));
    expect(zip.file('word/media/filler.bin')!.asNodeBuffer().length).toBe(1024);
    expect(zip.file('word/document.xml')!.asText()).toContain('{lawsuit.fileNumber}');
    const { docx } = fillTemplate(filler(1024), { lawsuit: { fileNumber: '٧' } });
    expect(new PizZip(docx).file('word/document.xml')!.asText()).toContain('٧');
  });
});
