import zlib from 'node:zlib';
import PizZip from 'pizzip';
import { TEMPLATE_UNPACKED_MAX_SIZE, type DocumentField } from '@mizan/contracts';
import { AppError } from '../http/errors';
import { documentImage } from './images';
import { buildStarterDocx } from './starters';
import { checkTemplate, fillTemplate, openDocx } from './template';

/** A 3×2 PNG (the bytes after the header are not read by the size check). */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000003000000020806000000' + '00'.repeat(32),
  'hex',
);
/** A JPEG's start: SOI, an APP0 segment, then a baseline frame header of 640×480. */
const JPEG = Buffer.concat([
  Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'),
  Buffer.from('ffc0001108' + '01e0' + '0280' + '03012200021101031101', 'hex'),
  Buffer.alloc(16),
]);

const templateOf = (lines: string[]) =>
  buildStarterDocx({
    file: 'x.docx',
    name: 'x',
    kind: 'other',
    record: 'lawsuit',
    description: '',
    body: lines,
  });

/** The template with a header part (`word/header1.xml`) holding `header`, as Word writes one. */
function withHeader(docx: Buffer, header: string): Buffer {
  const zip = new PizZip(docx);
  zip.file(
    'word/header1.xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<w:hdr xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
      `<w:p><w:r><w:t>${header}</w:t></w:r></w:p></w:hdr>`,
  );
  const rels = zip.file('word/_rels/document.xml.rels')!.asText();
  zip.file(
    'word/_rels/document.xml.rels',
    rels.replace(
      '</Relationships>',
      '<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/header" Target="header1.xml"/></Relationships>',
    ),
  );
  const types = zip.file('[Content_Types].xml')!.asText();
  zip.file(
    '[Content_Types].xml',
    types.replace(
      '</Types>',
      '<Override PartName="/word/header1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"/></Types>',
    ),
  );
  const xml = zip.file('word/document.xml')!.asText();
  zip.file(
    'word/document.xml',
    xml
      .replace(
        '<w:document ',
        '<w:document xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ',
      )
      .replace('<w:sectPr>', '<w:sectPr><w:headerReference w:type="default" r:id="rId9"/>'),
  );
  return zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' });
}

const field = (tag: string, kind: DocumentField['kind'] = 'value'): DocumentField => ({
  tag,
  kind,
  loop: null,
  label: { ar: tag, en: tag },
  example: { ar: tag, en: tag },
});
const FIELDS = [field('lawsuit.fileNumber'), field('office.name'), field('office.logo', 'image')];

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
    // An empty part gets no deflate stream at all, as some writers store one.
    const packed = content.length ? zlib.deflateRawSync(content) : Buffer.alloc(0);
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

describe('document images', () => {
  it('reads the pixel size of a PNG and a JPEG, and refuses other bytes', () => {
    expect(documentImage(PNG)).toMatchObject({ type: 'png', width: 3, height: 2 });
    expect(documentImage(JPEG)).toMatchObject({ type: 'jpeg', width: 640, height: 480 });
    expect(documentImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(documentImage(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBeNull();
  });

  it('draws the logo where `{%office.logo}` stands, in the body and in a header, one picture part', () => {
    const template = withHeader(templateOf(['{%office.logo} {office.name}']), 'رأس {%office.logo}');
    checkTemplate(template, FIELDS);
    const logo = documentImage(PNG)!;
    const { docx, missing } = fillTemplate(template, { office: { name: 'مكتب العدل', logo } });
    expect(missing).toEqual([]);
    const zip = new PizZip(docx);
    const media = Object.keys(zip.files).filter((n) => n.startsWith('word/media/'));
    expect(media).toEqual(['word/media/mizan-image-1.png']);
    expect(zip.file(media[0]!)!.asNodeBuffer().equals(PNG)).toBe(true);
    expect(zip.file('[Content_Types].xml')!.asText()).toContain(
      '<Default Extension="png" ContentType="image/png"/>',
    );
    for (const part of ['document.xml', 'header1.xml']) {
      const xml = zip.file(`word/${part}`)!.asText();
      const embed = /<a:blip r:embed="([^"]+)"\/>/.exec(xml);
      expect([part, embed !== null]).toEqual([part, true]);
      // The drawing's namespaces are declared on the part's root.
      expect(xml).toMatch(/^<\?xml[^>]*>\s*<w:(document|hdr)[^>]* xmlns:wp="[^"]+"[^>]* xmlns:pic="[^"]+"/);
      expect(xml).not.toContain('office.logo}');
      // 3×2 px at 96 dpi in EMU (below the box, so not shrunk).
      expect(xml).toContain('<wp:extent cx="28575" cy="19050"/>');
      const rels = zip.file(`word/_rels/${part}.rels`)!.asText();
      expect(rels).toContain(
        `<Relationship Id="${embed![1]}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/mizan-image-1.png"/>`,
      );
    }
    // The text around the tag stays.
    expect(zip.file('word/document.xml')!.asText()).toContain('مكتب العدل');
    // The filled document opens again as a DOCX.
    expect(() => openDocx(docx)).not.toThrow();
  });

  it('shrinks a large image into the box, keeping its aspect', () => {
    const { docx } = fillTemplate(templateOf(['{%office.logo}']), { office: { logo: documentImage(JPEG) } });
    const xml = new PizZip(docx).file('word/document.xml')!.asText();
    // 640×480 px → 5 cm wide (1,800,000 EMU), 3.75 cm would be too tall: 2.5 cm high, 3.33 cm wide.
    expect(xml).toContain('<wp:extent cx="1200000" cy="900000"/>');
    expect(new PizZip(docx).file('[Content_Types].xml')!.asText()).toContain('Extension="jpeg"');
  });

  it('without a logo the tag is left empty and listed as missing; nothing is added', () => {
    const template = templateOf(['قبل {%office.logo} بعد']);
    const { docx, missing } = fillTemplate(template, { office: { name: 'x' } });
    expect(missing).toEqual(['office.logo']);
    const zip = new PizZip(docx);
    expect(Object.keys(zip.files).some((n) => n.startsWith('word/media/'))).toBe(false);
    expect(zip.file('word/document.xml')!.asText()).toContain('قبل  بعد');
  });

  it('an image written as text, or a text field written as an image, is 422 saying so', () => {
    const asText = (() => {
      try {
        checkTemplate(templateOf(['{office.logo}']), FIELDS);
      } catch (error) {
        return error as AppError;
      }
      return null;
    })();
    expect(asText?.statusCode).toBe(422);
    expect((asText!.options.extra as { tags: { reason: string }[] }).tags[0]!.reason).toBe('image');
    expect(refusal(() => checkTemplate(templateOf(['{%office.name}']), FIELDS))).toEqual({
      status: 422,
      key: 'documents.tag.unknown',
    });
    // A condition on the logo is fine.
    expect(() =>
      checkTemplate(templateOf(['{#office.logo}{%office.logo}{/office.logo}']), FIELDS),
    ).not.toThrow();
  });
});

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
    expect(openDocx(filler(0)).file('word/media/filler.bin')!.asNodeBuffer().length).toBe(0);
    expect(zip.file('word/document.xml')!.asText()).toContain('{lawsuit.fileNumber}');
    const { docx } = fillTemplate(filler(1024), { lawsuit: { fileNumber: '٧' } });
    expect(new PizZip(docx).file('word/document.xml')!.asText()).toContain('٧');
  });
});
