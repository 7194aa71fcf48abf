import type Docxtemplater from 'docxtemplater';
import type PizZip from 'pizzip';

/**
 * Images as merge fields (`{%office.logo}`), without docxtemplater's paid image module: a small
 * module of our own turns an image tag into an inline drawing (`<w:drawing>` in the tag's run)
 * whose picture names a relationship id of ours, and `embedImages` then adds, to the filled
 * package, the picture part, its relationship in the rels of each part (body, header, footer)
 * that shows it, its content type and the drawing namespaces. A tag without an image is left
 * empty (and listed as missing by the parser, as any field).
 */

/** An image a field gives a document: PNG or JPEG bytes and their size in pixels. */
export interface DocumentImage {
  readonly data: Buffer;
  readonly type: 'png' | 'jpeg';
  readonly width: number;
  readonly height: number;
}

/** The largest box an image is drawn in, in EMU (1 cm = 360,000): 5 × 2.5 cm, aspect kept. */
const MAX_WIDTH_EMU = 5 * 360_000;
const MAX_HEIGHT_EMU = 2.5 * 360_000;
/** EMU per pixel at 96 dpi. */
const EMU_PER_PX = 9525;

/** The module's name, the prefix of its tags in a template, and the ids of its relationships. */
export const IMAGE_MODULE = 'mizan/image';
export const IMAGE_PREFIX = '%';
const REL_PREFIX = 'rIdMizanImage';
/** Drawing ids (`wp:docPr`) of ours start here, above those a template's own drawings use. */
const FIRST_DRAWING_ID = 90_000;

const NS = {
  wp: 'http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing',
  a: 'http://schemas.openxmlformats.org/drawingml/2006/main',
  pic: 'http://schemas.openxmlformats.org/drawingml/2006/picture',
  r: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
} as const;
const IMAGE_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/image';

/** The pixel size of a PNG (its IHDR) or a JPEG (its first frame header); null for anything else. */
export function documentImage(data: Buffer): DocumentImage | null {
  if (data.length > 24 && data.readUInt32BE(0) === 0x89504e47 && data.toString('ascii', 12, 16) === 'IHDR') {
    const width = data.readUInt32BE(16);
    const height = data.readUInt32BE(20);
    return width > 0 && height > 0 ? { data, type: 'png', width, height } : null;
  }
  if (data.length > 4 && data[0] === 0xff && data[1] === 0xd8) {
    let at = 2;
    while (at + 9 < data.length) {
      if (data[at] !== 0xff) return null;
      const marker = data[at + 1]!;
      if (marker === 0xff) {
        at += 1;
        continue;
      }
      const length = data.readUInt16BE(at + 2);
      // SOF0–SOF15 but DHT (C4), JPG (C8) and DAC (CC): the frame's height and width.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        const height = data.readUInt16BE(at + 5);
        const width = data.readUInt16BE(at + 7);
        return width > 0 && height > 0 ? { data, type: 'jpeg', width, height } : null;
      }
      if (length < 2) return null;
      at += 2 + length;
    }
  }
  return null;
}

const isImage = (value: unknown): value is DocumentImage =>
  !!value &&
  typeof value === 'object' &&
  Buffer.isBuffer((value as DocumentImage).data) &&
  ((value as DocumentImage).type === 'png' || (value as DocumentImage).type === 'jpeg');

/** An image's drawn size in EMU: its pixels at 96 dpi, shrunk into the box. */
function extent(image: DocumentImage): { cx: number; cy: number } {
  const w = image.width * EMU_PER_PX;
  const h = image.height * EMU_PER_PX;
  const scale = Math.min(1, MAX_WIDTH_EMU / w, MAX_HEIGHT_EMU / h);
  return { cx: Math.max(1, Math.round(w * scale)), cy: Math.max(1, Math.round(h * scale)) };
}

/** The inline drawing of an image, closing the tag's text and opening a new one after it. */
function drawingXml(image: DocumentImage, relId: string, drawingId: number, name: string): string {
  const { cx, cy } = extent(image);
  return (
    '</w:t><w:drawing>' +
    '<wp:inline distT="0" distB="0" distL="0" distR="0">' +
    `<wp:extent cx="${cx}" cy="${cy}"/><wp:effectExtent l="0" t="0" r="0" b="0"/>` +
    `<wp:docPr id="${drawingId}" name="${name}"/>` +
    '<wp:cNvGraphicFramePr><a:graphicFrameLocks noChangeAspect="1"/></wp:cNvGraphicFramePr>' +
    `<a:graphic><a:graphicData uri="${NS.pic}"><pic:pic>` +
    `<pic:nvPicPr><pic:cNvPr id="0" name="${name}"/><pic:cNvPicPr/></pic:nvPicPr>` +
    `<pic:blipFill><a:blip r:embed="${relId}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>` +
    `<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm>` +
    '<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr>' +
    '</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing><w:t xml:space="preserve">'
  );
}

type RenderPart = Pick<Docxtemplater.DXT.Part, 'module' | 'value'>;
interface RenderOptions {
  scopeManager: { getValue(tag: string, meta: { part: RenderPart }): unknown };
}

/**
 * The docxtemplater module of image tags (`{%tag}`), with the images it drew, for
 * `embedImages` after rendering. One per render.
 */
export class ImageModule {
  readonly name = 'MizanImageModule';
  /** Each distinct image drawn, by its number in the relationship ids. */
  readonly images = new Map<DocumentImage, number>();
  private drawings = 0;

  matchers(): [string, string, Record<string, unknown>][] {
    return [[IMAGE_PREFIX, IMAGE_MODULE, {}]];
  }

  render(part: RenderPart, options: RenderOptions): Docxtemplater.DXT.Rendered | null {
    if (part.module !== IMAGE_MODULE) return null;
    const value = options.scopeManager.getValue(part.value, { part });
    if (!isImage(value)) return { value: '', errors: [] };
    let n = this.images.get(value);
    if (n === undefined) this.images.set(value, (n = this.images.size + 1));
    const id = FIRST_DRAWING_ID + ++this.drawings;
    return {
      value: drawingXml(value, `${REL_PREFIX}${n}`, id, `${part.value} ${this.drawings}`),
      errors: [],
    };
  }
}

/** Declares the drawing namespaces on a part's root element where it lacks them. */
function withNamespaces(xml: string): string {
  return xml.replace(/<(w:document|w:hdr|w:ftr)\b([^>]*)>/, (whole, tag: string, attrs: string) => {
    const missing = Object.entries(NS)
      .filter(([prefix]) => !new RegExp(`\\sxmlns:${prefix}=`).test(attrs))
      .map(([prefix, uri]) => ` xmlns:${prefix}="${uri}"`)
      .join('');
    return missing ? `<${tag}${attrs}${missing}>` : whole;
  });
}

const RELS_EMPTY =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>';

/**
 * Adds the images the module drew to the filled package: each once under `word/media/`, related
 * from every part whose drawings name it, with its content type.
 */
export function embedImages(doc: Docxtemplater, module: ImageModule): void {
  if (!module.images.size) return;
  const zip = doc.getZip() as PizZip;
  const media = new Map<number, string>();
  for (const [image, n] of module.images) {
    let name = `mizan-image-${n}.${image.type}`;
    for (let i = 2; zip.file(`word/media/${name}`); i++) name = `mizan-image-${n}-${i}.${image.type}`;
    zip.file(`word/media/${name}`, image.data);
    media.set(n, name);
  }
  const pattern = new RegExp(`r:embed="${REL_PREFIX}(\\d+)"`, 'g');
  for (const path of Object.keys(zip.files)) {
    if (!/^word\/[^/]+\.xml$/.test(path)) continue;
    const xml = zip.file(path)!.asText();
    const used = new Set([...xml.matchAll(pattern)].map((m) => Number(m[1])));
    if (!used.size) continue;
    zip.file(path, withNamespaces(xml));
    const relsPath = path.replace(/^word\/([^/]+)$/, 'word/_rels/$1.rels');
    let rels = zip.file(relsPath)?.asText() ?? RELS_EMPTY;
    for (const n of used) {
      const id = `${REL_PREFIX}${n}`;
      if (rels.includes(`Id="${id}"`)) continue;
      rels = rels.replace(
        '</Relationships>',
        `<Relationship Id="${id}" Type="${IMAGE_REL}" Target="media/${media.get(n)}"/></Relationships>`,
      );
    }
    zip.file(relsPath, rels);
  }
  let types = zip.file('[Content_Types].xml')!.asText();
  for (const image of module.images.keys()) {
    if (new RegExp(`Extension="${image.type}"`, 'i').test(types)) continue;
    types = types.replace(
      '</Types>',
      `<Default Extension="${image.type}" ContentType="image/${image.type}"/></Types>`,
    );
  }
  zip.file('[Content_Types].xml', types);
}
