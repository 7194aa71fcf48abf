import { TEMPLATE_UNPACKED_MAX_SIZE, type DocumentField } from '@mizan/contracts';
import Docxtemplater from 'docxtemplater';
import InspectModule from 'docxtemplater/js/inspect-module.js';
import PizZip from 'pizzip';
import zlib from 'node:zlib';
import { AppError, type Translatable } from '../http/errors';
import { present } from '../http/values';
import { IMAGE_MODULE, ImageModule, embedImages } from './images';

/**
 * A template's DOCX judged and filled by docxtemplater (tags `{a.b}`, loops and conditions
 * `{#x}…{/x}`, inverted `{^x}…{/x}`) over pizzip. Judged before it is stored: a ZIP that is a DOCX
 * (its main part declared as a document, not a macro-enabled one), unpacking to at most
 * `TEMPLATE_UNPACKED_MAX_SIZE`, whose tags are all well formed and all in the field catalogue.
 * Image fields are written `{%office.logo}` (see `images.ts`).
 */

const MAIN_DOCUMENT = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml';
const MACRO_DOCUMENT = 'application/vnd.ms-word.document.macroEnabled.main+xml';

/** One problem of a template: the tag as written and where it stands (part of the file, character). */
export interface TagProblem {
  tag: string;
  part: string;
  offset: number;
  reason: string;
}

interface CompressedData {
  compressionMethod: string;
  uncompressedSize: number;
  getCompressedContent(): Uint8Array;
  getContent(): Uint8Array;
}
interface ZipEntry {
  dir: boolean;
  _data?: CompressedData | unknown;
}

/** pizzip's marks of its two compression methods. */
const STORED = '\x00\x00';
const DEFLATED = '\x08\x00';

/**
 * Unpacks every part of an archive now, counting the bytes actually inflated: the sizes the
 * archive declares may lie, so zlib stops once the parts together pass `limit` (a part cannot
 * inflate past what is left). A part whose real size differs from the declared one makes the
 * archive corrupt. The parts keep their unpacked bytes, so pizzip never inflates them again.
 */
function unpackBounded(zip: PizZip, limit: number): 'tooLarge' | 'corrupt' | null {
  let left = limit;
  for (const file of Object.values(zip.files as Record<string, ZipEntry>)) {
    const data = file._data as Partial<CompressedData> | undefined;
    if (file.dir || !data || typeof data.getCompressedContent !== 'function') continue;
    const raw = data.getCompressedContent();
    const packed = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    let content: Buffer;
    // An empty part may be written with no deflate stream at all.
    if (data.compressionMethod === STORED || packed.length === 0) content = packed;
    else if (data.compressionMethod === DEFLATED) {
      try {
        content = zlib.inflateRawSync(packed, { maxOutputLength: Math.max(1, left + 1) });
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return 'tooLarge';
        return 'corrupt';
      }
    } else return 'corrupt';
    left -= content.length;
    if (left < 0) return 'tooLarge';
    if (content.length !== data.uncompressedSize) return 'corrupt';
    const bytes = new Uint8Array(content.buffer, content.byteOffset, content.length);
    data.getContent = () => bytes;
  }
  return null;
}

/** Opens a DOCX after checking its container: 415 not a DOCX or macros, 413 unpacks too large. */
export function openDocx(content: Buffer, field = 'file'): PizZip {
  const refuse = (
    messageKey: string,
    code: 'unsupportedMediaType' | 'payloadTooLarge' = 'unsupportedMediaType',
  ) =>
    new AppError(code, {
      messageKey,
      params: { max: Math.round(TEMPLATE_UNPACKED_MAX_SIZE / 1024 / 1024) },
      errors: {
        [field]: [{ key: messageKey, params: { max: Math.round(TEMPLATE_UNPACKED_MAX_SIZE / 1024 / 1024) } }],
      },
    });
  let zip: PizZip;
  try {
    zip = new PizZip(content);
  } catch (error) {
    throw Object.assign(refuse('documents.notDocx'), { cause: error });
  }
  const entries = Object.entries(zip.files as Record<string, ZipEntry>);
  // The sizes the archive declares, summed before anything is unpacked (a quick refusal)...
  const declared = entries.reduce(
    (sum, [, f]) => sum + ((f._data as Partial<CompressedData> | undefined)?.uncompressedSize ?? 0),
    0,
  );
  if (declared > TEMPLATE_UNPACKED_MAX_SIZE) throw refuse('documents.unpackedTooLarge', 'payloadTooLarge');
  // ...then the bytes really inflated, which stop at the limit whatever the archive declares.
  const unpacked = unpackBounded(zip, TEMPLATE_UNPACKED_MAX_SIZE);
  if (unpacked === 'tooLarge') throw refuse('documents.unpackedTooLarge', 'payloadTooLarge');
  if (unpacked === 'corrupt') throw refuse('documents.notDocx');
  const types = zip.file('[Content_Types].xml')?.asText() ?? '';
  if (
    types.includes(MACRO_DOCUMENT) ||
    entries.some(([name]) => /(^|\/)vbaProject\.bin$|(^|\/)vbaData\.xml$/i.test(name))
  )
    throw refuse('documents.macros');
  if (!types.includes(MAIN_DOCUMENT) || !zip.file('word/document.xml')) throw refuse('documents.notDocx');
  return zip;
}

/**
 * The value of a dotted tag in the data: looked up in the loop's own row first, then outward
 * (a loop's `{date}` is the hearing's, `{lawsuit.number}` inside it the record's). `.` is the
 * row itself.
 */
function lookup(scopes: unknown[], tag: string): unknown {
  if (tag === '.') return scopes[scopes.length - 1];
  const path = tag.split('.');
  for (let i = scopes.length - 1; i >= 0; i--) {
    let node: unknown = scopes[i];
    for (const part of path) {
      node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
      if (node === undefined) break;
    }
    if (node !== undefined) return node;
  }
  return undefined;
}

interface ParserContext {
  scopeList: unknown[];
}

/** docxtemplater's errors as our problems. */
function problemsOf(error: unknown): TagProblem[] | null {
  const errors = (error as { properties?: { errors?: unknown[] } }).properties?.errors;
  const list = Array.isArray(errors)
    ? errors
    : (error as { properties?: unknown }).properties
      ? [error]
      : null;
  if (!list) return null;
  return list.map((e) => {
    const p = (e as { properties: Record<string, unknown> }).properties;
    return {
      tag: String(p.xtag ?? p.context ?? ''),
      part: String(p.file ?? 'word/document.xml'),
      offset: Number(p.offset ?? 0),
      reason: String(p.id ?? 'invalid'),
    };
  });
}

const tagError = (field: string, problems: TagProblem[]) =>
  new AppError('validation', {
    messageKey: 'documents.badTags',
    params: { tags: problems.map((p) => p.tag).join('، ') },
    errors: {
      [field]: problems.map((p): Translatable => ({
        key: `documents.tag.${p.reason === 'unknown' || p.reason === 'image' ? p.reason : 'broken'}`,
        params: { tag: p.tag, part: p.part, offset: p.offset },
      })),
    },
    extra: { tags: problems },
  });

interface StructuredTag {
  value: string;
  offset: number;
  module?: string;
  subparsed?: StructuredTag[];
}

/** Compiles a template (docxtemplater's own checks); its broken tags are 422 naming each. */
function compile(
  zip: PizZip,
  field: string,
  modules: { inspect?: InspectModule; images: ImageModule },
  missing?: Set<string>,
): Docxtemplater {
  try {
    return new Docxtemplater(zip, {
      paragraphLoop: true,
      linebreaks: true,
      // The errors are the answer's (422 naming each tag), not the server log's.
      errorLogging: false,
      modules: modules.inspect ? [modules.images, modules.inspect] : [modules.images],
      parser: (tag: string) => ({
        get: (scope: unknown, context: ParserContext) => {
          const value = lookup(context.scopeList ?? [scope], tag);
          if (!present(value) && missing) missing.add(tag);
          return value;
        },
      }),
      nullGetter: () => '',
    });
  } catch (error) {
    const problems = problemsOf(error);
    if (!problems) throw error;
    throw tagError(field, problems);
  }
}

/**
 * Checks a template for upload: its container (see `openDocx`), its tags well formed, and each
 * tag a field of the catalogue (a loop's own fields inside it, the record's anywhere). Throws the
 * first kind of problem found (415, 413, or 422 listing every bad tag with its place).
 */
export function checkTemplate(content: Buffer, fields: readonly DocumentField[], field = 'file'): void {
  const zip = openDocx(content, field);
  const inspect = new InspectModule();
  compile(zip, field, { inspect, images: new ImageModule() });
  const images = new Set(fields.filter((f) => f.kind === 'image').map((f) => f.tag));
  const top = new Set(fields.filter((f) => !f.loop && f.kind !== 'image').map((f) => f.tag));
  const inLoop = new Map<string, Set<string>>();
  for (const f of fields)
    if (f.loop) (inLoop.get(f.loop) ?? inLoop.set(f.loop, new Set()).get(f.loop)!).add(f.tag);
  const problems: TagProblem[] = [];
  const walk = (tags: readonly StructuredTag[], loops: string[]) => {
    for (const tag of tags) {
      const name = tag.value;
      const known =
        tag.module === IMAGE_MODULE
          ? images.has(name)
          : name === '.' ||
            top.has(name) ||
            loops.some((l) => inLoop.get(l)?.has(name)) ||
            // A condition on a part of the record (`{#lawsuit.court}`) or on an image (`{#office.logo}`).
            (tag.module === 'loop' && (images.has(name) || [...top].some((t) => t.startsWith(`${name}.`))));
      if (!known)
        problems.push({
          tag: name,
          part: 'word/document.xml',
          offset: tag.offset,
          // An image written as text (`{office.logo}`): say how to write it.
          reason: images.has(name) && tag.module !== IMAGE_MODULE ? 'image' : 'unknown',
        });
      if (tag.subparsed)
        walk(tag.subparsed, tag.module === 'loop' && inLoop.has(name) ? [...loops, name] : loops);
    }
  };
  walk(inspect.getStructuredTags() as StructuredTag[], []);
  if (problems.length) throw tagError(field, problems);
}

/**
 * Fills a template with `data`; returns the DOCX and the tags that had no value (left empty).
 * Paragraph and run properties (right-to-left, fonts) are the template's, untouched.
 */
export function fillTemplate(
  content: Buffer,
  data: Record<string, unknown>,
): { docx: Buffer; missing: string[] } {
  const zip = openDocx(content);
  const missing = new Set<string>();
  const images = new ImageModule();
  const doc = compile(zip, 'file', { images }, missing);
  doc.render(data);
  embedImages(doc, images);
  const docx = doc.getZip().generate({ type: 'nodebuffer', compression: 'DEFLATE' }) as Buffer;
  return { docx, missing: [...missing].sort() };
}
